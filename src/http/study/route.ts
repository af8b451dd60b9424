import { Router, type Request } from "express";
import { invalidParameter, notFound } from "../../errors.js";
import { bookById, chapterCount, findBook } from "../../scripture/books.js";
import type { BibleLibrary } from "../../scripture/corpus.js";
import type { LinkOptions } from "../../scripture/links.js";
import { crossBookProblem, formatReference, parsePassageQuery, type ScriptureRef } from "../../scripture/references.js";
import { fits, tooLongMessage } from "../../limits.js";
import { DEFAULT_TRANSLATION_ID } from "../../scripture/translations.js";
import { COMMENTARIES } from "../../study/commentaries.js";
import type { StudyLibrary } from "../../study/library.js";
import { refItem } from "../../study/passage-refs.js";
import { normalizeStrongId } from "../../study/strong-ids.js";
import { wordsSource } from "../../study/verse-tags.js";
import { route } from "../routes.js";
import { flag, integer, required, single, verseRange } from "./params.js";

/** More verses than this in one passage request is a book, not a passage: ask for less. */
export const MAX_PASSAGE_VERSES = 400;
export const MAX_TOPICS = 50;
const RELATED_LIMIT = 10;

export interface StudyRouterDeps {
  study: StudyLibrary;
  bibles: BibleLibrary;
  /** PUBLIC_BASE_URL: the items' reader urls become absolute. */
  baseUrl?: string | undefined;
}

const query = (req: Request) => req.query as Record<string, unknown>;

function bibleParam(raw: Record<string, unknown>, bibles: BibleLibrary) {
  const id = single(raw, "bible_id") ?? DEFAULT_TRANSLATION_ID;
  const bible = bibles.get(id);
  if (!bible) throw invalidParameter(`Unknown bible_id '${id}'. Available: ${bibles.ids().join(", ")} (see GET /v1/translations).`, "bible_id");
  return bible;
}

function chapterSpans(ref: ScriptureRef): { chapter: number; from: number; to: number }[] {
  const last = ref.chapterEnd ?? ref.chapter;
  const spans = [];
  for (let c = ref.chapter; c <= last; c++) {
    const from = c === ref.chapter ? (ref.verseStart ?? 1) : 1;
    const to = c === last ? (ref.verseEnd ?? (ref.chapterEnd === undefined && ref.verseStart !== undefined ? ref.verseStart : 999)) : 999;
    spans.push({ chapter: c, from, to });
  }
  return spans;
}

/**
 * Key-less study endpoints (docs/study.md): Strong's lexicon, passages with word tags and notes,
 * commentaries, Nave's topics.
 */
export function studyRouter({ study, bibles, baseUrl }: StudyRouterDeps): Router {
  const router = Router();
  // Items of a passage open it in the asked translation; the other endpoints name none (the default).
  const links = (bibleId?: string): LinkOptions => ({ bibleId, baseUrl });

  route(router, "/v1/lexicon/:id", {
    get: (req, res) => {
      const raw = String(req.params.id);
      const id = normalizeStrongId(raw);
      if (id === undefined) throw invalidParameter(`'${raw.slice(0, 40)}' is not a Strong's number; use G25, g0025 or H7965.`, "id");
      const entry = study.lexicon.get(id);
      if (!entry) throw notFound(`Strong's dictionary has no entry ${id}.`);
      res.json(entry);
    },
  });

  route(router, "/v1/passage", {
    get: (req, res) => {
      const raw = query(req);
      const text = required(raw, "ref", '"John 21:15-17"');
      const bible = bibleParam(raw, bibles);
      const words = flag(raw, "words", false);
      const notes = flag(raw, "notes", true);
      const related = flag(raw, "related", false);
      // Refused past its cap, never cut: a cut reference could name another passage.
      if (!fits(text, "reference")) throw invalidParameter(tooLongMessage("ref", "reference", text.length), "ref");
      const ref = parsePassageQuery(text);
      const crossBook = ref === null ? crossBookProblem(text) : undefined;
      if (crossBook !== undefined) throw invalidParameter(crossBook, "ref");
      if (ref === null) throw invalidParameter(`'${text.slice(0, 60)}' is not a Bible reference; use forms like John 3:16, Romans 8:28-30 or Psalm 23.`, "ref");
      const book = bookById(ref.book)!;
      if (ref.chapter > chapterCount(book)) throw notFound(`${book.name} has ${chapterCount(book)} chapters.`);
      const verses = [];
      let superscription: string | undefined;
      for (const span of chapterSpans(ref)) {
        if (span.from === 1 && span.chapter === ref.chapter) superscription = bible.chapter(ref.book, span.chapter)?.superscription;
        for (const v of bible.verses(ref.book, span.chapter, span.from, span.to)) {
          if (verses.length === MAX_PASSAGE_VERSES) {
            throw invalidParameter(`The passage has more than ${MAX_PASSAGE_VERSES} verses; ask for a narrower range.`, "ref");
          }
          const item: Record<string, unknown> = { chapter: span.chapter, verse: v.verse, text: v.text };
          if (words) {
            const tagged = study.tags.words(bible.id, ref.book, span.chapter, v.verse);
            if (tagged) item.words = tagged;
          }
          if (notes) {
            const found = study.tags.notes(bible.id, ref.book, span.chapter, v.verse, baseUrl);
            if (found.length > 0) item.notes = found;
          }
          verses.push(item);
        }
      }
      if (verses.length === 0) {
        // A deuterocanonical book is in the WEB only: say so rather than "does not exist".
        const elsewhere = bible.chapter(ref.book, 1) === undefined ? bibles.ids().find((id) => bibles.get(id)?.chapter(ref.book, 1)) : undefined;
        throw notFound(
          elsewhere
            ? `${bible.name} (${bible.id}) does not include ${book.name}; ask with bible_id=${elsewhere}.`
            : `${formatReference(ref)} does not exist in ${bible.name} (${bible.id}).`,
        );
      }
      const lang = bible.language.startsWith("es") ? "es" : "en";
      const body: Record<string, unknown> = {
        reference: formatReference(ref, lang),
        bible_id: bible.id,
        book_id: ref.book,
        chapter: ref.chapter,
        ...(superscription ? { superscription } : {}),
        words_available: study.tags.has(bible.id),
        verses,
      };
      const source = words ? wordsSource(bible.id) : undefined;
      if (source) body.words_source = source;
      if (related) {
        const first = chapterSpans(ref)[0]!;
        body.related = study.topics.related(ref.book, first.chapter, first.from, first.to, RELATED_LIMIT, links(bible.id));
      }
      res.json(body);
    },
  });

  route(router, "/v1/commentaries", {
    get: (_req, res) =>
      void res.json({
        commentaries: COMMENTARIES.map((c) => ({
          id: c.id,
          name: c.name,
          author: c.author,
          date: c.date,
          tradition: c.tradition,
          scope: c.scope === "bible" ? "bible" : c.scope,
          license: c.license,
          source: { module: c.module, package: c.package },
        })),
      }),
  });

  route(router, "/v1/commentary/:id/:book_id/:chapter", {
    get: (req, res) => {
      const id = String(req.params.id);
      const info = study.commentaries.info(id);
      if (!info) throw notFound(`No commentary '${id.slice(0, 40)}'. See GET /v1/commentaries.`);
      const book = findBook(String(req.params.book_id));
      if (!book) throw invalidParameter(`Unknown book '${String(req.params.book_id).slice(0, 40)}'; use a USFM id such as JHN.`, "book_id");
      const chapterText = String(req.params.chapter);
      const chapter = /^\d{1,3}$/.test(chapterText) ? Number(chapterText) : NaN;
      if (!(chapter >= 1 && chapter <= chapterCount(book))) {
        throw invalidParameter(`'chapter' must be a chapter of ${book.name}, 1 to ${chapterCount(book)}.`, "chapter");
      }
      const verseText = single(query(req), "verse");
      const range = verseText === undefined ? undefined : verseRange(verseText, "verse");
      if (!study.commentaries.covers(info.id, book.id)) {
        throw notFound(`${info.name} does not cover ${book.name}${info.scope === "bible" ? "" : `; it covers ${info.scope.map((b) => bookById(b)?.name ?? b).join(", ")}`}.`);
      }
      const ref: ScriptureRef = { book: book.id, chapter, ...(range ? { verseStart: range[0], verseEnd: range[1] } : {}) };
      const sections = study.commentaries.sections(info.id, book.id, chapter, range?.[0], range?.[1]).map((s) => {
        const sref: ScriptureRef = s.verseStart === 0 ? { book: book.id, chapter } : { book: book.id, chapter, verseStart: s.verseStart, verseEnd: s.verseEnd };
        return { ...refItem(sref, "en", links()), ...(s.title ? { title: s.title } : {}), text: s.text };
      });
      res.json({
        commentary: { id: info.id, name: info.name, author: info.author, date: info.date, tradition: info.tradition },
        reference: formatReference(ref),
        book_id: book.id,
        chapter,
        sections,
      });
    },
  });

  route(router, "/v1/topics", {
    get: (req, res) => {
      const raw = query(req);
      const q = single(raw, "q");
      const refText = single(raw, "ref");
      const limit = integer(raw, "limit", 10, 1, MAX_TOPICS);
      if (q === undefined && refText === undefined) throw invalidParameter("Give 'q' (a topic such as anger) or 'ref' (a verse such as John 3:16).", "q");
      if (q !== undefined && !fits(q, "topic")) throw invalidParameter(tooLongMessage("q", "topic", q.length), "q");
      if (refText !== undefined) {
        if (!fits(refText, "reference")) throw invalidParameter(tooLongMessage("ref", "reference", refText.length), "ref");
        const ref = parsePassageQuery(refText);
        if (ref === null || ref.verseStart === undefined) throw invalidParameter(`'ref' must be a verse such as John 3:16.`, "ref");
        res.json({ topics: study.topics.forVerse(ref.book, ref.chapter, ref.verseStart, limit, undefined, links()) });
        return;
      }
      res.json({ topics: study.topics.search(q!, limit, undefined, links()) });
    },
  });

  route(router, "/v1/topics/:id", {
    get: (req, res) => {
      const id = String(req.params.id);
      const topic = /^[a-z0-9-]{1,80}$/i.test(id) ? study.topics.get(id, undefined, links()) : undefined;
      if (!topic) throw notFound(`No Nave's topic '${id.slice(0, 40)}'. Search with GET /v1/topics?q=...`);
      res.json({ topics: [topic] });
    },
  });

  return router;
}
