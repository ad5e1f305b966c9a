// Builds the bundled catalog's index from scratch and writes it to prebuilt/bundled-catalog/, which a fresh
// data folder starts from (src/app/catalog-index.ts). Run after changing the bundled catalog, the text a
// tool is embedded as, the no-tool anchors or the embedder: `npm run build:index`. A stale copy still
// works, only slower: the router embeds whatever differs.
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PREBUILT_INDEX } from "../src/app/index.ts";
import { loadCatalog } from "../src/catalog/index.ts";
import { BUNDLED_CATALOG } from "../src/config/index.ts";
import { createEmbedder } from "../src/embed/index.ts";
import { Router } from "../src/router/index.ts";
import { FileStore } from "../src/store/index.ts";

const data = await mkdtemp(join(tmpdir(), "switchboard-prebuilt-"));
const embedder = await createEmbedder({ kind: "use-lite" });
try {
  const started = performance.now();
  const router = await Router.open({
    tools: await loadCatalog(BUNDLED_CATALOG),
    store: new FileStore(data),
    embedder,
    key: "prebuilt",
  });
  await router.close();
  await mkdir(PREBUILT_INDEX, { recursive: true });
  for (const name of ["dense.hnsw", "manifest.json"])
    await copyFile(join(data, "router", "prebuilt", name), join(PREBUILT_INDEX, name));
  process.stdout.write(
    `${JSON.stringify({ tools: router.size, entries: router.report.entries, embedder: embedder.id, ms: Math.round(performance.now() - started) })}\n`,
  );
} finally {
  await embedder.close();
  await rm(data, { recursive: true, force: true });
}
