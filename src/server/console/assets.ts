// The console's built files (console/built/, committed; `npm run build:console` writes them), read once
// into memory with a gzip copy each. Only these names are served: the URL space never reaches the file
// system, which is why this is a table and not a static-file server.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** Beside src/ and dist/ alike, so the checkout and the installed package find it at the same place. */
export const BUILT_CONSOLE = fileURLToPath(new URL("../../../console/built", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

export interface Asset {
  type: string;
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

/** Every servable file of the folder by name; undefined when the console was never built there. */
export async function loadAssets(folder = BUILT_CONSOLE): Promise<Map<string, Asset> | undefined> {
  const names = await readdir(folder).catch(() => undefined);
  if (!names) return undefined;
  const assets = new Map<string, Asset>();
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const body = await readFile(join(folder, name));
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
    assets.set(name, { type, body, gzipped: gzipSync(body, { level: 9 }), etag });
  }
  return assets.has("index.html") ? assets : undefined;
}
