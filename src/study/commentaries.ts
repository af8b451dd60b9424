/**
 * The commentaries this service ships (public domain SWORD modules, exported by
 * ingest/export-study.ts into data/study/commentaries/<id>/<BOOK>.json.gz). None is neutral: each
 * carries its author, date and tradition so that answers and the reader can say whose voice it is.
 */
export interface CommentaryInfo {
  id: string;
  name: string;
  author: string;
  /** When it was written or published. */
  date: string;
  tradition: string;
  /** "bible" for the whole Bible, else the USFM ids it covers. */
  scope: "bible" | string[];
  /** SWORD module name and Debian package. */
  module: string;
  package: string;
  license: string;
}

export const COMMENTARIES: readonly CommentaryInfo[] = Object.freeze([
  {
    id: "mhcc",
    name: "Matthew Henry's Concise Commentary on the Whole Bible",
    author: "Matthew Henry",
    date: "1706-1714 (Concise edition abridged from his Exposition)",
    tradition: "English Nonconformist (Presbyterian), Reformed/Puritan",
    scope: "bible",
    module: "MHCC",
    package: "sword-comm-mhcc",
    license: "Public domain",
  },
  {
    id: "tdavid",
    name: "The Treasury of David",
    author: "Charles H. Spurgeon",
    date: "1869-1885",
    tradition: "Reformed (Calvinistic) Baptist",
    scope: ["PSA"],
    module: "TDavid",
    package: "sword-comm-tdavid",
    license: "Public domain",
  },
  {
    id: "scofield",
    name: "Scofield Reference Notes (1917 edition)",
    author: "C. I. Scofield",
    date: "1917",
    tradition: "Dispensationalist (dispensational premillennialism)",
    scope: "bible",
    module: "Scofield",
    package: "sword-comm-scofield",
    license: "Public domain",
  },
]);

export function findCommentary(id: string): CommentaryInfo | undefined {
  const key = id.trim().toLowerCase();
  return COMMENTARIES.find((c) => c.id === key);
}
