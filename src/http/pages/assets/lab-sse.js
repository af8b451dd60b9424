/**
 * Reads a server-sent-events body and yields each event's data (multi-line data joined with "\n").
 * Events are split on a blank line, whatever line endings the server used.
 */
export async function* sseData(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.search(/\r?\n\r?\n/)) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        const data = dataOf(block);
        if (data !== undefined) yield data;
      }
    }
    const data = dataOf(buffer);
    if (data !== undefined) yield data;
  } finally {
    reader.releaseLock();
  }
}

function dataOf(block) {
  const lines = block.split(/\r?\n/).filter((l) => l.startsWith("data:"));
  if (lines.length === 0) return undefined;
  return lines.map((l) => l.slice(5).replace(/^ /, "")).join("\n");
}
