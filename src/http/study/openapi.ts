/** The study endpoints in the OpenAPI document: paths and response shapes (checked against real responses in test/http/study-*.test.ts). */
import { z } from "zod";

type Json = Record<string, unknown>;
type ErrorCodes = Record<number, string[]>;

const RefItem = z.object({
  reference: z.string().describe('"Genesis 4:5-8"'),
  book_id: z.string(),
  chapter: z.int(),
  verses: z.string().describe('"16", "28-30", "" for a whole chapter, "5-5:2" into the next chapter.'),
  url: z.string().describe("The reader's address of the passage."),
});

export const LexiconEntry = z.object({
  id: z.string().describe('Canonical Strong\'s id: "G25", "H7965".'),
  language: z.enum(["greek", "hebrew"]),
  lemma: z.string(),
  transliteration: z.string(),
  pronunciation: z.string(),
  derivation: z.string(),
  definition: z.string(),
  kjv_usage: z.string().describe("How the KJV renders the word (Strong's own summary)."),
  see_also: z.array(z.string()),
  occurrences: z
    .record(z.string(), z.object({ words: z.int(), verses: z.int() }))
    .describe("Tagged words and verses per translation (bible_id -> counts)."),
});

const VerseWord = z.object({ text: z.string(), strong: z.array(z.string()).describe("[] for the untagged text between tagged words.") });
const VerseNote = z.object({
  type: z.enum(["footnote", "cross-reference"]),
  text: z.string(),
  at: z.int().describe("Characters of the verse text before the note's mark."),
  references: z.array(RefItem).optional(),
});

export const Passage = z.object({
  reference: z.string(),
  bible_id: z.string(),
  book_id: z.string(),
  chapter: z.int(),
  superscription: z.string().optional().describe("A psalm's title when the passage starts at verse 1."),
  words_available: z.boolean().describe("Whether this translation carries Strong's tags (eng-web, eng-kjv)."),
  words_source: z
    .string()
    .optional()
    .describe("With words=true on a tagged translation: where its tags come from (the KJV's are hand-made; the WEB's are matched to the KJV's)."),
  verses: z.array(
    z.object({
      chapter: z.int(),
      verse: z.int(),
      text: z.string(),
      words: z.array(VerseWord).optional().describe("With words=true on a tagged translation: the verse as words whose texts join to exactly `text`."),
      notes: z.array(VerseNote).optional().describe("The translation's footnotes and cross-references (notes=false leaves them out)."),
    }),
  ),
  related: z.array(RefItem.extend({ topics: z.array(z.string()) })).optional().describe("With related=true: passages that share Nave's topics with the first verses."),
});

const CommentaryInfo = z.object({ id: z.string(), name: z.string(), author: z.string(), date: z.string(), tradition: z.string() });

export const CommentaryList = z.object({
  commentaries: z.array(
    CommentaryInfo.extend({
      scope: z.union([z.literal("bible"), z.array(z.string())]).describe('"bible" or the book ids covered.'),
      license: z.string(),
      source: z.object({ module: z.string(), package: z.string() }),
    }),
  ),
});

export const CommentaryChapter = z.object({
  commentary: CommentaryInfo,
  reference: z.string(),
  book_id: z.string(),
  chapter: z.int(),
  sections: z.array(RefItem.extend({ title: z.string().optional(), text: z.string().describe("Plain text; paragraphs separated by a blank line.") })),
});

const Topic = z.object({
  id: z.string(),
  name: z.string(),
  reference_count: z.int(),
  references: z.array(RefItem.extend({ note: z.string().optional() })).describe("Search results carry the first 20; GET /v1/topics/{id} all."),
  see_also: z.array(z.string()),
});
export const TopicList = z.object({ topics: z.array(Topic) });

const schema = (s: z.ZodType) => {
  const out = z.toJSONSchema(s, { io: "output", unrepresentable: "any" }) as Json;
  delete out.$schema;
  return out;
};
const ok = (description: string, s: z.ZodType) => ({ 200: { description, content: { "application/json": { schema: schema(s) } } } });
const pathParam = (name: string, description: string, type = "string") => ({ name, in: "path", required: true, description, schema: { type } });
const queryParam = (name: string, description: string, required = false, type = "string") => ({ name, in: "query", required, description, schema: { type } });

export function studyPaths(errors: (codes: ErrorCodes) => Json, keyless: ErrorCodes): Record<string, Json> {
  const get = (operationId: string, summary: string, parameters: Json[], responses: Json, codes: ErrorCodes) => ({
    get: { operationId, summary, tags: ["study"], parameters, responses: { ...responses, ...errors({ ...codes, ...keyless }) } },
  });
  return {
    "/v1/lexicon/{id}": get(
      "getLexiconEntry",
      "A Strong's Greek or Hebrew dictionary entry.",
      [pathParam("id", "Strong's number: G25, g0025, H7965.")],
      ok("The entry.", LexiconEntry),
      { 400: ["invalid_parameter"], 404: ["not_found"] },
    ),
    "/v1/passage": get(
      "getPassage",
      "The verses of a reference, with Strong's word tags, notes and related passages on request.",
      [
        queryParam("ref", 'A reference: "John 21:15-17", "Psalm 23", "Juan 3:16".', true),
        queryParam("bible_id", "Translation (default eng-web); see GET /v1/translations."),
        queryParam("words", "true: each verse's words with their Strong's ids (eng-web, eng-kjv).", false, "boolean"),
        queryParam("notes", "false: leave out footnotes and cross-references (default true).", false, "boolean"),
        queryParam("related", "true: passages sharing Nave's topics with the first verses.", false, "boolean"),
      ],
      ok("The passage.", Passage),
      { 400: ["invalid_request", "invalid_parameter"], 404: ["not_found"] },
    ),
    "/v1/commentaries": get("listCommentaries", "The commentaries, with author, date and tradition.", [], ok("The commentaries.", CommentaryList), {}),
    "/v1/commentary/{id}/{book_id}/{chapter}": get(
      "getCommentary",
      "A commentary's sections on a chapter, or on the verses given.",
      [
        pathParam("id", "Commentary id: mhcc, tdavid, scofield."),
        pathParam("book_id", "USFM book id (JHN) or a book name."),
        pathParam("chapter", "Chapter number.", "integer"),
        queryParam("verse", "A verse or range (16 or 16-18): only the sections that cover it, and the chapter-wide ones."),
      ],
      ok("The sections, in the commentary's order.", CommentaryChapter),
      { 400: ["invalid_parameter"], 404: ["not_found"] },
    ),
    "/v1/topics": get(
      "searchTopics",
      "Nave's Topical Bible: topics by name (q) or the topics that cite a verse (ref).",
      [
        queryParam("q", "Topic words: anger, faith, Sabbath."),
        queryParam("ref", "A verse: John 3:16."),
        queryParam("limit", "Topics to return, 1 to 50 (default 10).", false, "integer"),
      ],
      ok("Matching topics, best first.", TopicList),
      { 400: ["invalid_parameter"] },
    ),
    "/v1/topics/{id}": get(
      "getTopic",
      "One Nave's topic with all its references.",
      [pathParam("id", "Topic id from a search: anger, lords-supper.")],
      ok("The topic (a list of one).", TopicList),
      { 404: ["not_found"] },
    ),
  };
}
