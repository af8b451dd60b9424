import fc from "fast-check";

/** Strings that break naive code: RTL and zero-width marks, BOM, lone surrogates, NUL, combining marks. */
export const nastyString = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "\u202eJohn 3:16\u202c",
    "\u200b\u200c\u200d\u2060",
    "\ufeffGenesis 1",
    "\ud800",
    "\udfff\ud800x",
    "a\u0000b",
    "e\u0301\u0301\u0301",
    "مرحبا John 3:16",
    "👨‍👩‍👧‍👦 Psalm 23",
    "__proto__",
    "constructor",
    "prototype",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "../../../etc/passwd",
    "%00%ff",
    "John 999:999",
    "",
    " ",
  ),
);

// Mostly just over the per-message limit; the 1.1 MB body (413) is rarer, it costs the most to send.
const hugeString = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(20_001, 120_000) }, { weight: 1, arbitrary: fc.constant(1_100_000) }).map((n) => "y".repeat(n));
const POLLUTION = ["__proto__", "constructor", "prototype"];
const pollutionKey = fc.constantFrom(...POLLUTION);

/** Any JSON value, including objects keyed by prototype-pollution names. */
export const wildValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(-1, 0, 1, 2, 5, 200, 201, 2000, 2001, 1e308, -0, 2 ** 53),
    nastyString,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(nastyString, pollutionKey), tie("value"), { maxKeys: 4 }),
  ),
})).value;

const role = fc.oneof(fc.constantFrom("user", "assistant", "system", "developer", "tool", "function"), nastyString);
const content = fc.oneof(
  { weight: 5, arbitrary: nastyString.map((s) => (s.trim() ? s : `What is ${s}grace?`)) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: fc.array(fc.record({ type: fc.constantFrom("text", "image_url", "input_audio", "x"), text: wildValue }, { requiredKeys: ["type"] }), { maxLength: 3 }) },
  { weight: 1, arbitrary: wildValue },
);
const message = fc.record({ role, content, name: wildValue, tool_calls: wildValue }, { requiredKeys: ["role"] });

const question = nastyString.map((s) => `${s} What does John 3:16 mean?`);

/** Chat bodies: valid ones with odd text, well-shaped ones with bad values, and entirely wild ones. */
export const chatBody: fc.Arbitrary<unknown> = fc.oneof(
  {
    // Valid requests run the whole graph (tens of ms each): enough of them to matter, few enough to stay bounded.
    weight: 1,
    arbitrary: fc.record(
      {
        model: fc.constant("gpt-4o-mini"),
        messages: fc.tuple(fc.option(nastyString), question).map(([sys, q]) => [...(sys ? [{ role: "system", content: sys }] : []), { role: "user", content: q }]),
        stream: fc.boolean(),
        skip_preflight: fc.boolean(),
        max_words: fc.integer({ min: 1, max: 2000 }),
        bible_id: fc.constantFrom("eng-web", "eng-kjv", "spa-rv1909"),
      },
      { requiredKeys: ["messages"] },
    ),
  },
  {
    weight: 12,
    arbitrary: fc.record(
      {
        model: fc.oneof(fc.constant("gpt-4o-mini"), wildValue),
        messages: fc.oneof({ weight: 4, arbitrary: fc.array(message, { minLength: 1, maxLength: 7 }) }, { weight: 1, arbitrary: wildValue }),
        stream: fc.oneof(fc.boolean(), wildValue),
        stream_options: wildValue,
        max_words: fc.oneof(fc.integer({ min: -5, max: 2005 }), wildValue),
        bible_id: fc.oneof(fc.constantFrom("eng-web", "eng-kjv", "spa-rv1909"), wildValue),
        book_id: fc.oneof(fc.constantFrom("JHN", "GEN", "PSA", "XYZ"), wildValue),
        chapter: fc.oneof(fc.integer({ min: -1, max: 200 }), wildValue),
        verses: fc.oneof(fc.array(fc.integer({ min: -1, max: 200 }), { maxLength: 5 }), fc.constant(Array.from({ length: 201 }, (_, i) => i + 1)), wildValue),
        theology: wildValue,
        profile: wildValue,
        temperature: wildValue,
        n: wildValue,
        tools: wildValue,
        skip_preflight: fc.oneof(fc.constant(true), wildValue),
        system_instructions: fc.oneof(nastyString, hugeString, wildValue),
        __proto__: wildValue,
        constructor: wildValue,
        prototype: wildValue,
      },
      { requiredKeys: ["messages"] },
    ),
  },
  { weight: 2, arbitrary: wildValue },
);

export const searchParams: fc.Arbitrary<[string, string][]> = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom("q", "query", "limit", "testament", "book", "bible_id", "q[]", "q[a]", ...POLLUTION, "__proto__[polluted]"), nastyString),
    fc.oneof(fc.constantFrom("John 3:16", "love", "0", "21", "-1", "1e3", "Old Testament", "Gen", "eng-kjv", "x".repeat(1001)), nastyString),
  ),
  { maxLength: 5 },
);

export const searchQuery = nastyString.map((s) => `${s} love`);

export const searchBody: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ query: searchQuery, limit: fc.integer({ min: 1, max: 20 }) }, { requiredKeys: ["query"] }) },
  { weight: 2, arbitrary: fc.record({
    query: fc.oneof(nastyString, hugeString, wildValue),
    limit: fc.oneof(fc.integer({ min: -2, max: 25 }), wildValue),
    testament: wildValue,
    book: wildValue,
    bible_id: wildValue,
    __proto__: wildValue,
  }) },
  { weight: 1, arbitrary: wildValue },
);

/** Raw bodies that are not what the Content-Type claims: broken JSON, deep nesting, junk. */
export const rawBody = fc.oneof(
  fc.constantFrom("{", "[1,2", '{"messages": [}', "null", "\u0000\u0001", "{\"a\":1}garbage", `${"[".repeat(50_000)}${"]".repeat(50_000)}`, `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`),
  fc.string({ unit: "binary", maxLength: 60 }),
);

export const FUZZ_KEY = "sk-test-fuzz-2d9b7c41f0";

export const authHeader = fc.oneof(
  { weight: 6, arbitrary: fc.constant("Bearer sk-test-fuzz-2d9b7c41f0") },
  { weight: 1, arbitrary: fc.constantFrom("", "Bearer", "Bearer ", "Basic abc", "Bearer sk-", "bearer   sk-test-fuzz-2d9b7c41f0  ", "Bearer not-a-key", "Bearer sk-a b") },
  { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e\t]/g, "")) },
);
export const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/json; charset=latin1", "application/json; charset=utf-16", "multipart/form-data", "application/x-www-form-urlencoded", "") },
);
export const linksHeader = fc.option(fc.constantFrom("true", "false", "TRUE", "yes", "", "1"), { nil: undefined });
