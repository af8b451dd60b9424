import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { graph } from "./studio.js";
import { PICTURE_START, withPicture } from "./picture.js";

// Drawing needs only the wiring: no dependency loads and nothing goes over the network.
const mermaid = graph.getGraph().drawMermaid();
if (process.argv.includes("--stdout")) {
  process.stdout.write(`${mermaid}\n`);
} else {
  // docs/graph.md is the picture's home, beside the text that explains it; the README shows it too while it keeps the markers.
  for (const name of ["docs/graph.md", "README.md"]) {
    const file = fileURLToPath(new URL(`../../${name}`, import.meta.url));
    const before = readFileSync(file, "utf8");
    if (name === "README.md" && !before.includes(PICTURE_START)) continue;
    const after = withPicture(before, mermaid);
    if (after !== before) writeFileSync(file, after);
    process.stdout.write(after === before ? `${name}: graph picture already current\n` : `${name}: graph picture redrawn\n`);
  }
}
