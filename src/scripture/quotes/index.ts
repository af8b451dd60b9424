/** Quotations presented as scripture, checked against the caller's translation (docs/grounding.md). */
export { checkQuotes, createQuoteStream, type QuoteCheckOptions, type QuoteOutcome, type QuoteStatus, type QuoteStream } from "./stream.js";
export { foldingFor } from "./normalize.js";
export { buildCitations, countQuotes, type Citation, type CitationOptions, type CitationStatus } from "./citations.js";
