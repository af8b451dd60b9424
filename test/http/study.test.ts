import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../helpers/service.js";
import { checkSchema } from "./openapi-check.js";

let s: RunningService;
let doc: Record<string, any>;

beforeAll(async () => {
  s = await startService({ logLevel: "silent" });
  doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as Record<string, any>;
});
afterAll(() => s?.close());

async function get(path: string) {
  const res = await fetch(`${s.url}${path}`);
  return { status: res.status, body: (await res.json()) as any };
}

/** The body conforms to the documented schema of that path and status. */
function expectDocumented(template: string, status: number, body: unknown) {
  const schema = doc.paths[template]?.get?.responses?.[String(status)]?.content?.["application/json"]?.schema;
  expect(schema, `${template} documents ${status}`).toBeDefined();
  expect(checkSchema(body, schema, doc)).toEqual([]);
}

async function expectError(path: string, template: string, status: number, code: string, param?: string) {
  const { status: got, body } = await get(path);
  expect(got, path).toBe(status);
  expect(body.error).toMatchObject({ code, type: "invalid_request_error", ...(param ? { param } : {}) });
  expect(typeof body.error.message).toBe("string");
  expectDocumented(template, status, body);
}

describe("GET /v1/lexicon/{id}", () => {
  it("when asked for G25, g0025 or g25, then each is agapao with its definition and KJV counts", async () => {
    for (const id of ["G25", "g0025", "g25", "G00025"]) {
      const { status, body } = await get(`/v1/lexicon/${id}`);
      expect(status, id).toBe(200);
      expect(body).toMatchObject({ id: "G25", language: "greek", lemma: "ἀγαπάω", transliteration: "agapáō", pronunciation: "ag-ap-ah'-o" });
      expect(body.definition).toMatch(/to love/);
      expect(body.see_also).toContain("G5368");
      expect(body.occurrences["eng-kjv"].verses).toBeGreaterThan(100);
      expectDocumented("/v1/lexicon/{id}", 200, body);
    }
  });

  it("when asked for H7965, then it is shalom, Hebrew, derived from H7999", async () => {
    const { status, body } = await get("/v1/lexicon/H7965");
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: "H7965", language: "hebrew", transliteration: "shâlôm", derivation: "From H7999" });
    expect(body.definition).toMatch(/peace/);
    expect(body.kjv_usage).toMatch(/peace/);
  });

  it("when the id is malformed, then 400 invalid_parameter; when it does not exist, then 404 not_found", async () => {
    for (const bad of ["X25", "G", "25", "G25x1", "love", "G0", "G123456"]) await expectError(`/v1/lexicon/${bad}`, "/v1/lexicon/{id}", 400, "invalid_parameter", "id");
    await expectError("/v1/lexicon/G9999", "/v1/lexicon/{id}", 404, "not_found");
    await expectError("/v1/lexicon/H99999", "/v1/lexicon/{id}", 404, "not_found");
  });
});

describe("GET /v1/passage", () => {
  it("when John 21:15-17 is asked in the KJV with words, then the words join to the verse text and carry agape and phileo", async () => {
    const { status, body } = await get("/v1/passage?ref=John+21:15-17&bible_id=eng-kjv&words=true");
    expect(status).toBe(200);
    expect(body).toMatchObject({ reference: "John 21:15-17", bible_id: "eng-kjv", book_id: "JHN", chapter: 21, words_available: true });
    expect(body.verses.map((v: any) => v.verse)).toEqual([15, 16, 17]);
    for (const v of body.verses) expect(v.words.map((w: any) => w.text).join("")).toBe(v.text);
    const ids = body.verses[0].words.flatMap((w: any) => w.strong);
    expect(ids).toEqual(expect.arrayContaining(["G25", "G5368"]));
    expect(body.verses[0].words.find((w: any) => w.strong.includes("G5368")).text).toBe("love");
    expect(body.words_source).toMatch(/by hand/);
    expectDocumented("/v1/passage", 200, body);
  });

  it("when the README's example asks John 21:15-17 in the WEB with words, then 'affection' is phileo, 'had' is not Jesus, and the response says where the tags come from", async () => {
    const { status, body } = await get("/v1/passage?ref=John+21:15-17&words=true");
    expect(status).toBe(200);
    for (const v of body.verses) expect(v.words.map((w: any) => w.text).join("")).toBe(v.text);
    const tagged = body.verses.flatMap((v: any) => v.words.filter((w: any) => w.strong.length > 0));
    expect(tagged.filter((w: any) => w.text === "affection").map((w: any) => w.strong)).toEqual(Array(5).fill(["G5368"]));
    expect(tagged.find((w: any) => w.text === "had")).toBeUndefined();
    expect(body.words_source).toMatch(/matching the King James Version's hand-made tags/);
    expectDocumented("/v1/passage", 200, body);
  });

  it("when John 3:16 is asked in the WEB, then its footnote about 'only born' comes with it, and no words unless asked", async () => {
    const { body } = await get("/v1/passage?ref=John%203:16");
    expect(body.bible_id).toBe("eng-web");
    const [verse] = body.verses;
    expect(verse.words).toBeUndefined();
    expect(verse.notes).toEqual([expect.objectContaining({ type: "footnote", text: expect.stringMatching(/only born.*μονογενη/) })]);
    expect(verse.text.slice(0, verse.notes[0].at)).toMatch(/only born$/);
    const { body: bare } = await get("/v1/passage?ref=John%203:16&notes=false");
    expect(bare.verses[0].notes).toBeUndefined();
  });

  it("when a WEB verse has a cross-reference note, then it names the passages with reader links", async () => {
    const { body } = await get("/v1/passage?ref=Matthew+1:23&bible_id=eng-web");
    const xref = body.verses[0].notes.find((n: any) => n.type === "cross-reference");
    expect(xref.references).toEqual([expect.objectContaining({ reference: "Isaiah 7:14", book_id: "ISA", chapter: 7, verses: "14", url: "/read/ISA/7?verse=14" })]);
  });

  it("when the translation carries no tags, then words are absent and words_available is false", async () => {
    const { status, body } = await get("/v1/passage?ref=Juan+3:16&bible_id=spa-rv1909&words=true");
    expect(status).toBe(200);
    expect(body.reference).toBe("Juan 3:16");
    expect(body.words_available).toBe(false);
    expect(body.verses[0].words).toBeUndefined();
  });

  it("when related=true, then passages sharing Nave's topics come with the topics they share", async () => {
    const { body } = await get("/v1/passage?ref=Proverbs+15:1&related=true");
    expect(body.related.length).toBeGreaterThan(3);
    expect(body.related[0]).toMatchObject({ reference: expect.any(String), topics: expect.any(Array) });
    expect(body.related.flatMap((r: any) => r.topics)).toContain("Anger");
    expect(body.related.some((r: any) => r.book_id === "PRO" && r.chapter === 15 && r.verses === "1")).toBe(false);
    expectDocumented("/v1/passage", 200, body);
  });

  it("when a deuterocanonical passage is asked, then the WEB serves it with its notes, and the KJV says where to read it", async () => {
    const { status, body } = await get("/v1/passage?ref=Sirach+2:1");
    expect(status).toBe(200);
    expect(body).toMatchObject({ book_id: "SIR", chapter: 2, words_available: true });
    expect(body.verses[0].text).toMatch(/prepare your soul for temptation/);
    const kjv = await get("/v1/passage?ref=Sirach+2:1&bible_id=eng-kjv");
    expect(kjv.status).toBe(404);
    expect(kjv.body.error).toMatchObject({ code: "not_found", message: expect.stringMatching(/does not include Sirach; ask with bible_id=eng-web/) });
  });

  it("when a passage crosses chapters, then each verse says its chapter; a psalm keeps its title", async () => {
    const { body } = await get("/v1/passage?ref=Genesis+1:31-2:2");
    expect(body.verses.map((v: any) => [v.chapter, v.verse])).toEqual([[1, 31], [2, 1], [2, 2]]);
    const { body: psalm } = await get("/v1/passage?ref=Psalm+3:1-2");
    expect(psalm.superscription).toMatch(/Absalom/);
  });

  it("when the input is bad, then each answer is the error envelope", async () => {
    await expectError("/v1/passage", "/v1/passage", 400, "invalid_request", "ref");
    await expectError("/v1/passage?ref=", "/v1/passage", 400, "invalid_request", "ref");
    await expectError("/v1/passage?ref=hello+world", "/v1/passage", 400, "invalid_parameter", "ref");
    await expectError("/v1/passage?ref=John+3:16&bible_id=eng-xyz", "/v1/passage", 400, "invalid_parameter", "bible_id");
    await expectError("/v1/passage?ref=John+3:16&words=maybe", "/v1/passage", 400, "invalid_parameter", "words");
    await expectError("/v1/passage?ref=John+3:16&ref=John+3:17", "/v1/passage", 400, "invalid_parameter", "ref");
    await expectError("/v1/passage?ref=Psalms+1-150", "/v1/passage", 400, "invalid_parameter", "ref");
    await expectError("/v1/passage?ref=John+3:99", "/v1/passage", 400, "invalid_parameter", "ref");
    // The WEB relegates Luke 17:36 to a footnote: the verse exists in the KJV only.
    await expectError("/v1/passage?ref=Luke+17:36", "/v1/passage", 404, "not_found");
  });
});

describe("GET /v1/commentaries and /v1/commentary/{id}/{book_id}/{chapter}", () => {
  it("when listed, then the three commentaries show author, date and tradition; Scofield is dispensationalist", async () => {
    const { status, body } = await get("/v1/commentaries");
    expect(status).toBe(200);
    expect(body.commentaries.map((c: any) => c.id)).toEqual(["mhcc", "tdavid", "scofield"]);
    expect(body.commentaries.find((c: any) => c.id === "scofield").tradition).toMatch(/Dispensational/);
    expect(body.commentaries.find((c: any) => c.id === "tdavid")).toMatchObject({ author: "Charles H. Spurgeon", scope: ["PSA"] });
    expectDocumented("/v1/commentaries", 200, body);
  });

  it("when MHCC on John 3:16 is asked, then the section covering it is plain text about God's love", async () => {
    const { status, body } = await get("/v1/commentary/mhcc/JHN/3?verse=16");
    expect(status).toBe(200);
    expect(body.commentary).toMatchObject({ id: "mhcc", author: "Matthew Henry" });
    expect(body.reference).toBe("John 3:16");
    const verseSections = body.sections.filter((sec: any) => sec.verses !== "");
    expect(verseSections).toHaveLength(1);
    expect(verseSections[0].text).toMatch(/God so loved the world/);
    for (const sec of body.sections) expect(sec.text).not.toMatch(/<|>|&[a-z]+;| {2,}|\n{3}/);
    expectDocumented("/v1/commentary/{id}/{book_id}/{chapter}", 200, body);
  });

  it("when Spurgeon on Psalm 23:1 is asked, then the exposition of verse 1 is among the sections, titled", async () => {
    const { body } = await get("/v1/commentary/tdavid/PSA/23?verse=1");
    const expo = body.sections.find((sec: any) => sec.title === "Exposition" && sec.verses === "1");
    expect(expo.text).toMatch(/The Lord is my shepherd/);
    expect(body.sections.every((sec: any) => sec.verses === "" || sec.verses.split("-").map(Number)[0] <= 1)).toBe(true);
  });

  it("when the whole chapter is asked, then every section of it comes in order", async () => {
    const { body } = await get("/v1/commentary/scofield/JHN/3");
    expect(body.sections.length).toBeGreaterThan(4);
    expect(body.sections.find((sec: any) => sec.verses === "16").text).toMatch(/perish/);
  });

  it("when the input is bad, then each answer is the error envelope", async () => {
    const t = "/v1/commentary/{id}/{book_id}/{chapter}";
    await expectError("/v1/commentary/nope/JHN/3", t, 404, "not_found");
    await expectError("/v1/commentary/mhcc/XYZ/3", t, 400, "invalid_parameter", "book_id");
    await expectError("/v1/commentary/mhcc/JHN/22", t, 400, "invalid_parameter", "chapter");
    await expectError("/v1/commentary/mhcc/JHN/0", t, 400, "invalid_parameter", "chapter");
    await expectError("/v1/commentary/mhcc/JHN/three", t, 400, "invalid_parameter", "chapter");
    await expectError("/v1/commentary/mhcc/JHN/3?verse=x", t, 400, "invalid_parameter", "verse");
    await expectError("/v1/commentary/mhcc/JHN/3?verse=9-2", t, 400, "invalid_parameter", "verse");
    await expectError("/v1/commentary/tdavid/JHN/3", t, 404, "not_found");
  });
});

describe("GET /v1/topics", () => {
  it("when anger is searched, then Nave's Anger topic comes first with its references", async () => {
    const { status, body } = await get("/v1/topics?q=anger&limit=10");
    expect(status).toBe(200);
    expect(body.topics[0]).toMatchObject({ id: "anger", name: "Anger" });
    expect(body.topics.length).toBeLessThanOrEqual(10);
    expect(body.topics[0].references[0]).toMatchObject({ reference: "Genesis 4:6", book_id: "GEN", chapter: 4, verses: "6", url: "/read/GEN/4?verse=6" });
    expect(body.topics[0].reference_count).toBeGreaterThan(body.topics[0].references.length - 1);
    expectDocumented("/v1/topics", 200, body);
  });

  it("when a topic is fetched by id, then all its references come, with Nave's notes where given", async () => {
    const { status, body } = await get("/v1/topics/anger");
    expect(status).toBe(200);
    const [topic] = body.topics;
    expect(topic.references).toHaveLength(topic.reference_count);
    expect(topic.references.find((r: any) => r.reference === "Genesis 4:5-8").note).toMatch(/Cain/);
    expect(topic.see_also).toContain("hatred");
    expectDocumented("/v1/topics/{id}", 200, body);
  });

  it("when a verse is given, then the topics that cite it come", async () => {
    const { body } = await get("/v1/topics?ref=Proverbs+15:1&limit=5");
    expect(body.topics.map((t: any) => t.id)).toContain("anger");
  });

  it("when the input is bad, then each answer is the error envelope", async () => {
    await expectError("/v1/topics", "/v1/topics", 400, "invalid_parameter", "q");
    await expectError("/v1/topics?q=anger&limit=0", "/v1/topics", 400, "invalid_parameter", "limit");
    await expectError("/v1/topics?q=anger&limit=51", "/v1/topics", 400, "invalid_parameter", "limit");
    await expectError("/v1/topics?q=anger&limit=ten", "/v1/topics", 400, "invalid_parameter", "limit");
    await expectError("/v1/topics?ref=not+a+verse", "/v1/topics", 400, "invalid_parameter", "ref");
    await expectError("/v1/topics/no-such-topic-here", "/v1/topics/{id}", 404, "not_found");
  });
});

describe("reader urls of study items", () => {
  const base = "https://bible.example.org";
  let b: RunningService;
  beforeAll(async () => {
    b = await startService({ logLevel: "silent", env: { PUBLIC_BASE_URL: `${base}/` } });
  });
  afterAll(() => b?.close());
  const getB = async (path: string) => (await (await fetch(`${b.url}${path}`)).json()) as any;

  it("when a KJV passage is asked with related=true, then each related url opens the KJV", async () => {
    const { body } = await get("/v1/passage?ref=Proverbs+15:1&related=true&bible_id=eng-kjv");
    expect(body.related.length).toBeGreaterThan(3);
    for (const r of body.related) expect(r.url).toMatch(new RegExp(`^/read/${r.book_id}/${r.chapter}[?].*bible_id=eng-kjv$`));
  });

  it("when PUBLIC_BASE_URL is set, then related, note, topic and commentary urls are absolute and keep the translation", async () => {
    const kjv = await getB("/v1/passage?ref=Proverbs+15:1&related=true&bible_id=eng-kjv");
    for (const r of kjv.related) expect(r.url).toMatch(new RegExp(`^${base}/read/${r.book_id}/${r.chapter}[?].*bible_id=eng-kjv$`));
    const web = await getB("/v1/passage?ref=Matthew+1:23");
    const xref = web.verses[0].notes.find((n: any) => n.type === "cross-reference");
    expect(xref.references[0].url).toBe(`${base}/read/ISA/7?verse=14`);
    const topics = await getB("/v1/topics?q=anger&limit=1");
    expect(topics.topics[0].references.length).toBeGreaterThan(0);
    for (const r of topics.topics[0].references) expect(r.url.startsWith(`${base}/read/`)).toBe(true);
    const byId = await getB("/v1/topics/anger");
    expect(byId.topics[0].references[0].url.startsWith(`${base}/read/`)).toBe(true);
    const commentary = await getB("/v1/commentary/mhcc/JHN/3?verse=16");
    for (const sec of commentary.sections) expect(sec.url.startsWith(`${base}/read/JHN/3`)).toBe(true);
  });
});
