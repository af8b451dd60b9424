export const PICTURE_START = "<!-- graph:start -->";
export const PICTURE_END = "<!-- graph:end -->";

/** The Markdown that goes between the markers: a mermaid block, so GitHub renders it. */
export function pictureBlock(mermaid: string): string {
  return `${PICTURE_START}\n\`\`\`mermaid\n${mermaid.trimEnd()}\n\`\`\`\n${PICTURE_END}`;
}

/** The document with its picture replaced; throws when the markers are missing, so a moved README is noticed. */
export function withPicture(doc: string, mermaid: string): string {
  const start = doc.indexOf(PICTURE_START);
  const end = doc.indexOf(PICTURE_END, start);
  if (start < 0 || end < 0) throw new Error(`markers ${PICTURE_START} ... ${PICTURE_END} not found`);
  return doc.slice(0, start) + pictureBlock(mermaid) + doc.slice(end + PICTURE_END.length);
}
