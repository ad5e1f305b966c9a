// Switchboard's version, read from package.json at run time: the path is the same from src/config/ in a
// checkout and from dist/config/ in the package, where a JSON import would be compiled to a wrong one.
import { readFileSync } from "node:fs";

export const VERSION: string = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
).version;
