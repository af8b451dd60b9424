import { describe, expect, it } from "vitest";
import {
  buildBooks,
  dropSubscriptions,
  liftAcrosticLetters,
  normalizeDropCaps,
  settleLayouts,
  type BookLayouts,
  type ChapterLayoutData,
  serializeBible,
  splitInlinePsalmTitles,
  stripOsis,
  type BibleData,
  type ChapterData,
} from "../../ingest/export-sword.js";

// Snippets as `mod2imp` prints them for the shipped modules (lemmas shortened).
describe("stripOsis", () => {
  it.each([
    [
      "a footnote between two words becomes a space",
      '<w lemma="strong:H0430">God</w><note placement="foot"><reference type="annotateRef">1:1 </reference>The Hebrew word rendered “God” is “אֱלֹהִ֑ים” (Elohim).</note><w lemma="strong:H1254">created</w> <w lemma="x">the</w> <w lemma="x">earth</w>.',
      "God created the earth.",
    ],
    [
      "a footnote before punctuation leaves none",
      'the <w lemma="x">earth</w><note placement="foot">or, land</note>. And',
      "the earth. And",
    ],
    [
      "a footnote between quotations of Jesus becomes a space",
      '<q marker="" who="Jesus">his only born</q><note placement="foot"><reference type="annotateRef">3:16 </reference>The phrase “only born”</note><q marker="" who="Jesus"><w lemma="x">Son</w>, that</q>',
      "his only born Son, that",
    ],
    [
      "the next sentence set flush after the end of a quotation of Jesus gets its space (John 21:17)",
      '<q marker="" who="Jesus">“<w lemma="x">Do</w> you have affection for <w lemma="x">me</w>?”</q><w lemma="x">He</w> said',
      "“Do you have affection for me?” He said",
    ],
    [
      "the space the module leaves between an inner quotation's end and the punctuation closing the outer one goes",
      '<w lemma="x">touched</w> <w lemma="x">me</w>?’</q> ” <div eID="p1" type="x-p"/>',
      "touched me?’”",
    ],
    [
      "and so does the one before a question mark after an inner quotation (John 7:36)",
      'you can’t come’</q> ?” <div eID="p2" type="x-p"/>',
      "you can’t come’?”",
    ],
    [
      "cross references go",
      'Jesus wept.<note type="crossReference"><reference osisRef="Luke.19.41">Luke 19:41</reference></note>',
      "Jesus wept.",
    ],
    [
      "words the module splits across elements stay whole",
      'weep <w lemma="x">with tear</w>s, and <w lemma="x">in</w>asmuch',
      "weep with tears, and inasmuch",
    ],
    [
      "the divine name and supplied words keep their words",
      '<divineName><w lemma="strong:H3068">LORD</w></divineName>, how are they <w lemma="x">increased</w> that <transChange type="added">are</transChange> many',
      "LORD, how are they increased that are many",
    ],
    [
      "a supplied word flush between two words is a word of its own",
      '<w lemma="x">de su madre</w><transChange type="added">fué</transChange><w lemma="x">Abi</w> <w lemma="x">hija</w>',
      "de su madre fué Abi hija",
    ],
    [
      "a supplied enclitic pronoun stays on its verb",
      'y <w lemma="x">oyéndo</w><transChange type="added">lo</transChange> <w lemma="x">Jesús</w>',
      "y oyéndolo Jesús",
    ],
    [
      "a supplied pronoun after a name stands alone",
      '<w lemma="x">Josué</w><transChange type="added">los</transChange> <w lemma="x">hirió</w>',
      "Josué los hirió",
    ],
    [
      "a supplied phrase wrapping words is set apart",
      '<w lemma="x">Estas</w><transChange type="added"><w lemma="x">son las medidas</w> <w lemma="x">de que</w></transChange><w lemma="x">Salomón</w> fundó',
      "Estas son las medidas de que Salomón fundó",
    ],
    [
      "line and paragraph milestones are spaces, pilcrows go",
      '<l level="1" sID="a"/>¶ And the LORD spake<l eID="a" level="1"/><lb type="x-p"/>unto the fish',
      "And the LORD spake unto the fish",
    ],
    ["entities are decoded", "bread &amp; wine", "bread & wine"],
    [
      "leaked USFM markers go",
      'by my <w lemma="x">name</w> \\nd <w lemma="x">JEHOVAH</w> was I not; the \\nd LORD\\+nd*, therefore',
      "by my name JEHOVAH was I not; the LORD, therefore",
    ],
    [
      "what follows the end of the book is dropped",
      'be with all the saints. Amen.  <chapter eID="Rev.22"/><div eID="gen1" type="x-p"/> <div canonical="true" eID="gen2" osisID="Rev" type="book"/> <div sID="gen3" type="glossary"/> <title level="1" type="main">World English Bible Glossary</title> Abaddon is Hebrew for destruction.',
      "be with all the saints. Amen.",
    ],
  ])("%s", (_, osis, text) => {
    expect(stripOsis(osis).text).toBe(text);
  });

  it("lifts a canonical psalm title out of the verse", () => {
    const stripped = stripOsis(
      '<div type="x-milestone" subType="x-preverse" sID="pv1"/><title canonical="true" type="psalm">A <w lemma="x">Psalm</w> of <w lemma="x">David</w>.</title> <lg sID="g1"/> <l level="1" sID="g2"/><div type="x-milestone" subType="x-preverse" eID="pv1"/><divineName><w lemma="x">LORD</w></divineName>, how are they increased',
    );
    expect(stripped).toEqual({
      text: "LORD, how are they increased",
      psalmTitles: ["A Psalm of David."],
      headings: [],
      // The stanza and its first line start at the verse's first word.
      marks: [[0, "g"], [0, "l1"]],
    });
  });

  it("makes a title before the verse's text a heading, and drops it from the text", () => {
    const stripped = stripOsis('<title>BETH.</title> <w lemma="x">Wherewithal</w> shall a young man');
    expect(stripped).toMatchObject({ text: "Wherewithal shall a young man", psalmTitles: [], headings: ["BETH."] });
  });

  it("drops a title after the verse's text (the KJV's epistle subscriptions) without making it a heading", () => {
    const stripped = stripOsis('Grace be with you all. Amen. <title>Written to the Hebrews from Italy by Timothy.</title>');
    expect(stripped).toMatchObject({ text: "Grace be with you all. Amen.", headings: [] });
  });

  it("measures poetic lines, stanzas, Selah and paragraphs as offsets into the plain text", () => {
    // WEB Psalm 3:2 as mod2imp prints it (lemmas shortened).
    const osis =
      '<div type="x-milestone" subType="x-preverse" sID="pv1"/><l level="1" sID="a"/><div type="x-milestone" subType="x-preverse" eID="pv1"/>Many there are who say of my soul,<l eID="a" level="1"/> <l level="2" sID="b"/>“There is no help for him in <w lemma="x">God</w>.”<note placement="foot">The Hebrew word rendered “God” is “אֱלֹהִ֑ים” (Elohim).</note><l eID="b" level="2"/> <l sID="c" type="selah"/>Selah.<l eID="c" type="selah"/> <lg eID="g"/> <div sID="p" type="x-p"/>And more.';
    const { text, marks } = stripOsis(osis);
    expect(text).toBe("Many there are who say of my soul, “There is no help for him in God.” Selah. And more.");
    expect(marks).toEqual([[0, "l1"], [35, "l2"], [70, "s"], [77, "e"], [77, "p"]]);
    expect(text.slice(35)).toMatch(/^“There is no help/);
    expect(text.slice(70)).toMatch(/^Selah\./);
    expect(text.slice(77)).toBe("And more.");
  });
});

const IMP = [
  "$$$[ Module Heading ]",
  '<milestone type="x-importer" subType="x-osis2mod" n="$Rev: 3769 $"/>',
  "$$$Genesis 0:0",
  '<div sID="gen2" type="front"/> <title level="1" type="main">Preface</title> The Holy Bible is a collection',
  "$$$Genesis 1:0",
  '<chapter n="1" osisID="Gen.1" sID="Gen.1"/>',
  "$$$Genesis 1:1",
  "In the beginning.",
  "$$$Genesis 1:2",
  '<note placement="foot">only a footnote</note>',
  "$$$Genesis 1:3",
  "God said.",
  "$$$Genesis 1:4",
  "",
  "$$$Psalms 1:1",
  '<title canonical="true" type="psalm">ALEPH</title> <w lemma="x">Blessed</w> are those',
  "$$$Psalms 2:1",
  '<title canonical="true" type="psalm">A Psalm by David.</title> Yahweh, how my adversaries have increased!',
  "$$$Tobit 1:1",
  "The book of the words of Tobit",
  "$$$Susanna 1:1",
  "",
  "",
].join("\n");

describe("buildBooks", () => {
  const { books, stats } = buildBooks(IMP);

  it("keeps the books of the table (the deuterocanon too), skips front matter and books without text", () => {
    expect(Object.keys(books).sort()).toEqual(["GEN", "PSA", "TOB"]);
    expect(books.TOB?.[0]).toEqual([null, "The book of the words of Tobit"]);
    expect(stats.skippedBooks).toEqual(["Susanna"]);
  });

  it("keeps a hole for a footnote-only verse and drops trailing empty slots", () => {
    expect(books.GEN?.[0]).toEqual([null, "In the beginning.", "", "God said."]);
    expect(stats.emptyVerses).toEqual(["GEN 1:2"]);
    expect(stats.versesWithText).toBe(5);
  });

  it("stores verse 1's psalm title as the superscription, but not an acrostic letter", () => {
    expect(books.PSA?.[1]).toEqual(["A Psalm by David.", "Yahweh, how my adversaries have increased!"]);
    expect(books.PSA?.[0]).toEqual([null, "Blessed are those"]);
  });
});

describe("normalizeDropCaps", () => {
  const text = (opening: string) => ({
    GEN: [
      [null, opening] as ChapterData,
      // Where the usual spellings come from: words inside sentences.
      [null, "Y habló Jehová á Moisés, y aconteció que tú, y ocho años, y sus discípulos, y el ángel, y el rey, SANTIDAD Á JEHOVÁ."] as ChapterData,
    ],
  });
  it.each([
    ["EN el principio crió Dios", "En el principio crió Dios"],
    ["Y ACONTECIÓ después", "Y aconteció después"],
    ["JEHOVÁ es mi pastor", "Jehová es mi pastor"],
    ["A JEHOVÁ llamé", "A Jehová llamé"],
    ["DE OCHO años era", "De ocho años era"],
    ["¡OH Jehová, cuánto", "¡Oh Jehová, cuánto"],
    ["Y Á SUS discípulos dice", "Y á sus discípulos dice"],
    ["Aleluya. ALABAD á JAH", "Aleluya. Alabad á JAH"],
    ["Y El ángel de Jehová subió", "Y el ángel de Jehová subió"],
  ])("gives %j normal case", (opening, normal) => {
    const books = text(opening);
    normalizeDropCaps(books);
    expect(books.GEN[0]?.[1]).toBe(normal);
  });

  it("leaves capitals that do not open a chapter alone (divine names, inscriptions)", () => {
    const books = text("EN el principio");
    normalizeDropCaps(books);
    expect(books.GEN[1]?.[1]).toMatch(/SANTIDAD Á JEHOVÁ\.$/);
  });
});

describe("liftAcrosticLetters and settleLayouts", () => {
  it("makes the RV1909's Psalm 119 letters headings and moves the layout marks with the text", () => {
    const psalm: ChapterData = [null, "ALEPH. Bienaventurados los perfectos", ...Array<string>(7).fill("x y"), "BETH ¿Con qué limpiará"];
    const books: Record<string, ChapterData[]> = { PSA: Array.from({ length: 119 }, (_, i): ChapterData => (i === 118 ? psalm : [null, "a"])) };
    const layouts: BookLayouts = { PSA: [] };
    const layout: ChapterLayoutData = { headings: [], marks: new Map([[1, [[0, "p"], [7, "l1"], [15, "l2"]]]]), measured: new Map([[1, psalm[1] ?? ""]]) };
    (layouts.PSA as ChapterLayoutData[])[118] = layout;
    expect(liftAcrosticLetters(books, layouts)).toBe(2);
    settleLayouts(books, layouts);
    expect(psalm[1]).toBe("Bienaventurados los perfectos");
    expect(psalm[9]).toBe("¿Con qué limpiará");
    expect(layout.headings).toEqual([[1, "ALEPH"], [9, "BETH"]]);
    // "ALEPH. " (7 characters) went: the paragraph and first line start at 0, the next line 7 earlier.
    expect(layout.marks.get(1)).toEqual([[0, "p"], [0, "l1"], [8, "l2"]]);
  });
});

describe("splitInlinePsalmTitles", () => {
  it.each([
    ["Salmo de David. JEHOVÁ es mi pastor; nada me faltará.", "Salmo de David.", "JEHOVÁ es mi pastor; nada me faltará."],
    ["Salmo de David, cuando huía. ¡OH Jehová, cuánto!", "Salmo de David, cuando huía.", "¡OH Jehová, cuánto!"],
    ["Salmo de David. A TI, oh Jehová, levantaré mi alma.", "Salmo de David.", "A TI, oh Jehová, levantaré mi alma."],
    ["Masquil: ¿No está David escondido en nuestra tierra? OH Dios, sálvame", "Masquil: ¿No está David escondido en nuestra tierra?", "OH Dios, sálvame"],
  ])("splits %j at the drop cap", (verse, title, text) => {
    const books: Record<string, ChapterData[]> = { PSA: [[null, verse]] };
    expect(splitInlinePsalmTitles(books, new Set([1]))).toBe(1);
    expect(books.PSA?.[0]).toEqual([title, text]);
  });

  it("leaves untitled psalms and verses without a drop cap whole", () => {
    const books: Record<string, ChapterData[]> = {
      PSA: [[null, "Aleluya. ALABAD á Jehová."], [null, "Salmo de David, cuando vino Doeg"]],
    };
    expect(splitInlinePsalmTitles(books, new Set([2]))).toBe(0);
    expect(books.PSA).toEqual([[null, "Aleluya. ALABAD á Jehová."], [null, "Salmo de David, cuando vino Doeg"]]);
  });
});

describe("dropSubscriptions", () => {
  it("cuts the subscription after a book's last Amén, and nothing else", () => {
    const books: Record<string, ChapterData[]> = {
      ROM: [[null, "Amén. Sigue."], [null, "sea gloria para siempre. Amén. Fué escrita de Corinto á los Romanos."]],
      JHN: [[null, "las cosas que se habrían de escribir. Amén."]],
      GAL: [[null, "Amén. Enviada de Roma á los Gálatas."]],
    };
    expect(dropSubscriptions(books)).toEqual(["ROM: Fué escrita de Corinto á los Romanos.", "GAL: Enviada de Roma á los Gálatas."]);
    expect(books.ROM).toEqual([[null, "Amén. Sigue."], [null, "sea gloria para siempre. Amén."]]);
    expect(books.JHN).toEqual([[null, "las cosas que se habrían de escribir. Amén."]]);
    expect(books.GAL).toEqual([[null, "Amén."]]);
  });
});

describe("serializeBible", () => {
  it("writes valid JSON with one chapter per line", () => {
    const data: BibleData = {
      id: "x",
      name: "X",
      language: "en",
      source: { module: "m", version: "1", versification: "KJV" },
      books: { GEN: [[null, "a", "b"], ["t", "c"]], EXO: [[null, "d"]] },
    };
    const text = serializeBible(data);
    expect(JSON.parse(text)).toEqual(data);
    expect(text.split("\n")).toContain('[null,"a","b"],');
    expect(text.split("\n")).toContain('["t","c"]');
  });
});
