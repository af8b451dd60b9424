/**
 * Writes data/study/expansion.json.gz: each search window's commentary words (src/scripture/search/
 * expansion.ts), computed from the shipped commentaries once here rather than at every start (reading
 * and tokenizing 8 MB of commentary takes 10-20 s); and data/study/names-spa-eng.json.gz: the RV1909's
 * names aligned with the WEB's (names.ts; 1-2 s of a start otherwise). Rerun after the windows, the
 * commentaries or the Bible texts change.
 *
 * Run: npm run ingest:expansion
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DEFAULT_STUDY_DIR } from "../src/study/data.js";
import { loadBibleLibrary } from "../src/scripture/corpus.js";
import { commentaryTerms, EXPANSION_FILE } from "../src/scripture/search/expansion.js";
import { alignNames, NAMES_FILE, namesToJson } from "../src/scripture/search/names.js";
import { corpusPassages } from "../src/scripture/search/index.js";

const library = loadBibleLibrary({ ids: ["eng-web", "spa-rv1909"] });
const web = library.get("eng-web")!;
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

const names = gzipSync(JSON.stringify(namesToJson(alignNames(library.get("spa-rv1909")!, web))), { level: 9 });
writeFileSync(join(DEFAULT_STUDY_DIR, NAMES_FILE), names);
console.log(`${NAMES_FILE} ${(names.length / 1024).toFixed(0)} KB`);
