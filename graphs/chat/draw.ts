import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { graph } from "./studio.js";
import { withPicture } from "./picture.js";

// Drawing needs only the wiring: no dependency loads and nothing goes over the network.
const mermaid = graph.getGraph().drawMermaid();
if (process.argv.includes("--stdout")) {
  process.stdout.write(`${mermaid}\n`);
} else {
  const readme = fileURLToPath(new URL("../../README.md", import.meta.url));
  const before = readFileSync(readme, "utf8");
  const after = withPicture(before, mermaid);
  if (after !== before) writeFileSync(readme, after);
  process.stdout.write(after === before ? "README.md: graph picture already current\n" : "README.md: graph picture redrawn\n");
}
