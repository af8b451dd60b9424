import { graph } from "./graph.js";

// Drawing needs only the wiring: no dependency loads and nothing goes over the network.
process.stdout.write(`${graph.getGraph().drawMermaid()}\n`);
