/** Tool results are read by the model on every later turn: they stay short and bounded. */
export const MAX_TOOL_RESULT_CHARS = 6_000;

export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(" ", max);
  return `${text.slice(0, cut > max * 0.6 ? cut : max)} …`;
}

export function bounded(lines: string[], max = MAX_TOOL_RESULT_CHARS): string {
  let out = "";
  for (const line of lines) {
    if (out.length + line.length + 1 > max) return `${out}\n[more results left out to keep this short]`;
    out += (out ? "\n" : "") + line;
  }
  return out;
}
