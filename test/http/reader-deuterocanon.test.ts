/** The reader serves the deuterocanon from eng-web, and from a translation without it falls back visibly. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPagesApp } from "../browser/app.js";
import type { Listening } from "../helpers/listen.js";

let srv: Listening;
beforeAll(async () => {
  srv = await startPagesApp();
});
afterAll(() => srv.close());

const page = async (path: string, status = 200) => {
  const res = await fetch(srv.url + path, { redirect: "manual" });
  expect(res.status, path).toBe(status);
  return { res, html: await res.text() };
};

describe("the reader and the deuterocanon", () => {
  it("when Sirach 2:1 is opened, then the WEB's chapter shows with verse 1 highlighted and no note", async () => {
    const { html } = await page("/read/SIR/2?verse=1");
    expect(html).toContain("<h1>Sirach 2</h1>");
    expect(html).toMatch(/<span class="verse hl" id="v1"[^>]*>.*My son, if you come to serve the Lord/);
    expect(html).not.toContain('class="note fallback"');
  });

  it("when 2 Maccabees 12:45 is opened in the KJV, then it falls back to the WEB and says so", async () => {
    const { html } = await page("/read/2MA/12?verse=45&bible_id=eng-kjv");
    expect(html).toContain('<p class="note fallback" role="note" lang="en">2 Maccabees is not in the King James Version; shown in the World English Bible.</p>');
    expect(html).toMatch(/id="v45"[^>]*>.*atoning sacrifice for those who had died/);
    expect(html).toContain('<p class="edition">World English Bible</p>');
  });

  it("when Tobit is opened in the RV1909, then the note is in Spanish", async () => {
    const { html } = await page("/read/TOB/4?bible_id=spa-rv1909");
    expect(html).toContain("Tobías no está en la Reina-Valera 1909; se muestra en la World English Bible.");
    expect(html).toContain("what you yourself hate");
  });

  it("when moving between chapters, then the deuterocanon is its own sequence", async () => {
    const tobit = await page("/read/TOB/1");
    expect(tobit.html).not.toMatch(/rel="prev"/);
    expect(tobit.html).toContain('href="/read/TOB/2"');
    const judith = await page("/read/TOB/14");
    expect(judith.html).toContain('href="/read/JDT/1"');
    const rev = await page("/read/REV/22");
    expect(rev.html).not.toMatch(/rel="next"/);
  });

  it("when a name is used instead of the id, then it redirects to the USFM id", async () => {
    const { res } = await page("/read/Sirach/2?verse=1", 301);
    expect(res.headers.get("location")).toBe("/read/SIR/2?verse=1");
  });

  it("when the chapter does not exist, then a 404 says how many there are", async () => {
    const { html } = await page("/read/SIR/52", 404);
    expect(html).toContain("Sirach has no chapter 52 (it has 51).");
  });
});
