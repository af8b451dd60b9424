/**
 * Removes index collections no replica of this release uses: those of another corpus or index version
 * (an older release), with their build claims. The service itself never deletes a collection, since
 * another replica (another configuration, or the previous release during a rolling upgrade) may be
 * reading it; run this once every replica runs the new release. It lists first and removes nothing
 * unless given --yes.
 *
 * Run: npm run index:prune [-- --keep NAME ...] [-- --yes]
 * CHROMA_URL names the shared Chroma; unset, the embedded one under DATA_DIR is started (stop the service first).
 */
import { ChromaClient } from "chromadb";
import { isClaimCollection, listAllCollections } from "../src/chroma/claim.js";
import { embeddedChromaPath, startEmbeddedChroma, type EmbeddedChroma } from "../src/chroma/embedded.js";
import { loadConfig } from "../src/config.js";
import { loadBibleLibrary } from "../src/scripture/corpus.js";
import { COLLECTION_PREFIX, corpusCollectionPrefix, prepareCorpus } from "../src/scripture/search/index.js";

function argsAfter(flag: string): string[] {
  const out: string[] = [];
  process.argv.forEach((a, i) => a === flag && process.argv[i + 1] && out.push(process.argv[i + 1]!));
  return out;
}

async function main() {
  const config = loadConfig();
  const apply = process.argv.includes("--yes");
  const keep = new Set(argsAfter("--keep"));
  let embedded: EmbeddedChroma | undefined;
  const quiet = { info() {}, warn() {}, error() {} };
  const url = config.chromaUrl ?? (embedded = await startEmbeddedChroma({ path: embeddedChromaPath(config.dataDir), logger: quiet, restart: false })).url;
  try {
    const parsed = new URL(url);
    const client = new ChromaClient({ host: parsed.hostname, port: Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80)), ssl: parsed.protocol === "https:" });
    // This release's corpus (index version included): every embedder's collection of it may be in use.
    const corpus = await prepareCorpus(loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!);
    const { corpusHash } = corpus;
    await corpus.release();
    const current = corpusCollectionPrefix(corpusHash);
    const ours = (await listAllCollections(client)).filter((c) => c.name.startsWith(COLLECTION_PREFIX));
    const rows = await Promise.all(
      ours.map(async (c) => {
        const m = c.metadata ?? {};
        const keepIt = c.name.startsWith(current) || keep.has(c.name) || [...keep].some((k) => isClaimCollection(c.name) && c.name.startsWith(`${k}-claim-`));
        return { name: c.name, records: isClaimCollection(c.name) ? "claim" : String(await c.count()), version: m.index_version ?? "-", complete: m.complete ?? "-", remove: !keepIt };
      }),
    );
    console.log(`Chroma ${url}; this release's collections start with ${current}`);
    for (const r of rows.sort((a, b) => a.name.localeCompare(b.name))) {
      console.log(`${r.remove ? "remove" : "keep  "}  ${r.name}  records=${r.records} index_version=${r.version} complete=${r.complete}`);
    }
    const doomed = rows.filter((r) => r.remove);
    if (doomed.length === 0) return console.log("Nothing to remove.");
    if (!apply) return console.log(`Would remove ${doomed.length} collection(s). Run again with --yes to remove them (--keep NAME spares one).`);
    for (const r of doomed) {
      await client.deleteCollection({ name: r.name });
      console.log(`removed ${r.name}`);
    }
  } finally {
    await embedded?.stop();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exitCode = 1;
});
