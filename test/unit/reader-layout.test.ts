import { describe, expect, it } from "vitest";
import { assetVersions, pageAssets } from "../../src/http/pages/html.js";
import { resolveReader, type BibleSource, type LayoutLike } from "../../src/http/pages/reader.js";
import { renderReader } from "../../src/http/pages/reader-view.js";

// Psalm 23:1-3 and a prose verse after it, with marks in the corpus's layout format (docs/corpus.md).
const VERSES = [
  { verse: 1, text: "Yahweh is my shepherd; I shall lack nothing." },
  { verse: 2, text: "He makes me lie down in green pastures. He leads me beside still waters." },
  { verse: 3, text: "He restores my soul. Selah." },
  { verse: 4, text: "And then some prose follows here." },
];
const LAYOUT: LayoutLike = {
  headings: [{ verse: 1, text: "BOOK 1" }],
  verses: [
    { verse: 1, marks: [{ at: 0, kind: "paragraph" }, { at: 0, kind: "stanza" }, { at: 0, kind: "line", indent: 1 }, { at: 23, kind: "line", indent: 2 }] },
    { verse: 2, marks: [{ at: 0, kind: "line", indent: 1 }, { at: 40, kind: "line", indent: 2 }] },
    { verse: 3, marks: [{ at: 0, kind: "line", indent: 1 }, { at: 21, kind: "selah" }] },
    { verse: 4, marks: [{ at: 0, kind: "stanza-end" }] },
  ],
};
const source = (layout?: LayoutLike): BibleSource => ({
  get: () => ({ chapter: () => ({ verses: VERSES }), ...(layout ? { layout: () => layout } : {}) }),
});
const render = (layout?: LayoutLike, query: Record<string, string> = {}) => {
  const result = resolveReader(source(layout), { book: "PSA", chapter: "23" }, query);
  if (result.kind !== "page") throw new Error(result.kind);
  const html = renderReader(pageAssets(assetVersions()), result.view);
  return html.slice(html.indexOf('<div class="chapter-text">'), html.indexOf("</main>"));
};
const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ").trim();

describe("the reader's text layout", () => {
  it("when a chapter has line and stanza marks, then it is set as a heading, a stanza of indented lines, a Selah line and prose", () => {
    const html = render(LAYOUT);
    expect(html).toContain('<h2 class="heading">BOOK 1</h2>');
    // In a line the number hangs in the margin (no no-break space after it); in prose it is glued to the word.
    expect(html).toContain('<a class="vn" href="/read/PSA/23?verse=1">1</a>Yahweh');
    const stanza = html.match(/<div class="stanza">([\s\S]*?)<\/div>/)?.[1] ?? "";
    const lines = [...stanza.matchAll(/<span class="(line [\w ]+)">([\s\S]*?)<\/span>\n?(?=<span class="line|$)/g)].map((m) => [m[1], text(m[2]!)]);
    expect(lines).toEqual([
      ["line l1", "1Yahweh is my shepherd;"],
      ["line l2", "I shall lack nothing."],
      ["line l1", "2He makes me lie down in green pastures."],
      ["line l2", "He leads me beside still waters."],
      ["line l1", "3He restores my soul."],
      ["line selah", "Selah."],
    ]);
    expect(html).toMatch(/<\/div>\n<p><span class="verse" id="v4"><a class="vn" href="\/read\/PSA\/23\?verse=4">4<\/a>\u00a0And then some prose follows here\.<\/span><\/p>/);
    // No empty paragraph where the paragraph mark is followed at once by a stanza.
    expect(html).not.toContain("<p></p>");
    // Every word of the plain text is there once, in order.
    expect(text(html.replace(/<a class="vn"[^>]*>\d+<\/a>\u00a0?/g, "")).replace("BOOK 1 ", "")).toBe(VERSES.map((v) => v.text).join(" "));
  });

  it("when a verse runs over several lines, then only its first part carries its id and number, and all parts its highlight", () => {
    const html = render(LAYOUT, { verse: "2" });
    expect(html.match(/id="v2"/g)).toHaveLength(1);
    expect(html.match(/class="verse hl"/g)).toHaveLength(2);
    expect(html).toContain('<span class="verse hl" data-v="2">He leads me beside still waters.</span>');
    expect(html.match(/data-highlight/g)).toHaveLength(1);
  });

  it("when a translation has no layout, then the chapter is one paragraph with every verse", () => {
    const html = render();
    expect(html.match(/<p>/g)).toHaveLength(1);
    expect(html).not.toContain("stanza");
    expect(html.match(/class="verse"/g)).toHaveLength(4);
  });
});
