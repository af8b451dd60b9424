/**
 * The quotation check's own cost on a 300-word answer with three quotations (one misquoted, one
 * faithful, one block quote) and nine references, whole and streamed in 8-character chunks, beside link
 * conversion of the same answer in the same run. "warm": the same answer again and again (the
 * reference parser's memo holds its segments); "fresh": every answer cites other verses.
 * Run alone with `node --import tsx bench/quote-cost.ts`; bench:chat prints it too.
 */
import { performance } from "node:perf_hooks";
import { loadBibleLibrary } from "../src/scripture/corpus.js";
import { convertLinks } from "../src/scripture/links.js";
import { checkQuotes, createQuoteStream } from "../src/scripture/quotes/index.js";
import { prepareReferences } from "../src/scripture/references.js";

function answer(verse: number): string {
  const filler =
    "Scripture speaks of this love again and again, and the church has always read these passages together, " +
    "letting the clearer ones explain the harder ones and keeping the whole story in view. ";
  return (
    `God's love is shown in John 3:16: "For God so loved the world, that he gave his one and only Son." ` +
    `It is a gift, not a wage, as Romans 6:${20 + (verse % 4)} and Ephesians 2:8-9 say. ${filler}` +
    `Paul writes in Romans 8:${28 + (verse % 10)}, "all things work together for good for those who love God." ${filler}` +
    `Jesus says in John 14:6:\n\n> I am the way, the truth, and the life.\n\n` +
    `The love is for the whole world, and it is received by faith (Galatians 2:${16 + (verse % 5)}). ${filler}` +
    `See also 1 John 4:${9 + (verse % 8)}-10, where love is defined by God's sending of his Son, and Psalm ${100 + (verse % 50)}. ` +
    `${filler}${filler}Read Luke 15 and Ro 12 slowly, and pray through Psalm 23 this week. ${filler}`
  );
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

export interface QuoteCost {
  words: number;
  quotations: number;
  wholeWarm: number;
  streamedWarm: number;
  wholeFresh: number;
  linksWarm: number;
}

export function measureQuoteCost(rounds = 300): QuoteCost {
  prepareReferences();
  const bible = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
  const text = answer(0);
  const words = text.split(/\s+/).filter(Boolean).length;
  const quotations = checkQuotes(text, { bible }).quotes.length;
  for (let i = 0; i < 50; i++) checkQuotes(text, { bible });
  const time = (run: (i: number) => void) => {
    const samples: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      run(i);
      samples.push(performance.now() - t0);
    }
    return p50(samples);
  };
  const chunks = text.match(/[^]{1,8}/g) ?? [];
  return {
    words,
    quotations,
    wholeWarm: time(() => checkQuotes(text, { bible })),
    streamedWarm: time(() => {
      const stream = createQuoteStream({ bible });
      for (const chunk of chunks) stream.push(chunk);
      stream.flush();
    }),
    wholeFresh: time((i) => checkQuotes(answer(1000 + i), { bible })),
    linksWarm: time(() => convertLinks(text)),
  };
}

export function quoteCostTable(cost: QuoteCost): string {
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  return [
    `Quotation check, ${cost.words}-word answer with ${cost.quotations} quotations (p50):`,
    "| path | quotation check | link conversion, same answer |",
    "|---|---|---|",
    `| whole text, warm | ${ms(cost.wholeWarm)} | ${ms(cost.linksWarm)} |`,
    `| streamed in 8-character chunks, warm | ${ms(cost.streamedWarm)} | |`,
    `| whole text, other verses each time | ${ms(cost.wholeFresh)} | |`,
    `ratio quotation check / link conversion (warm): ${(cost.wholeWarm / cost.linksWarm).toFixed(2)}`,
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(quoteCostTable(measureQuoteCost()));
}
