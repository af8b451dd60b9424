/**
 * Writes data/study/expansion.json.gz: each search window's commentary words (src/scripture/search/
 * expansion.ts), computed from the shipped commentaries once here rather than at every start (reading
 * and tokenizing 8 MB of commentary takes 10-20 s). Rerun after the windows or the commentaries change.
 *
 * Run: npm run ingest:expansion
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DEFAULT_STUDY_DIR } from "../src/study/data.js";
import { loadBibleLibrary } from "../src/scripture/corpus.js";
import { commentaryTerms, EXPANSION_FILE } from "../src/scripture/search/expansion.js";
import { corpusPassages } from "../src/scripture/search/index.js";

const web = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
const passages = corpusPassages(web);
const started = Date.now();
const terms = commentaryTerms(passages);
const out: Record<string, string> = {};
passages.forEach((p, i) => {
  if (terms[i]!.length > 0) out[p.id] = terms[i]!.join(" ");
});
const body = gzipSync(JSON.stringify(out), { level: 9 });
writeFileSync(join(DEFAULT_STUDY_DIR, EXPANSION_FILE), body);
console.log(`${Object.keys(out).length} of ${passages.length} windows expanded in ${Date.now() - started} ms; ${EXPANSION_FILE} ${(body.length / 1024).toFixed(0)} KB`);
