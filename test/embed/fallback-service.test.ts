// The service on the tfjs fallback: where onnxruntime-node cannot load, `serve` still starts, and both its
// ready line and /readyz say which runtime embeds and why; on the native runtime /readyz names no embedder.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { CLI, ROOT, tempDir } from "../server/harness.ts";

const WITHOUT_ONNXRUNTIME = `${ROOT}/test/fixtures/without-onnxruntime.ts`;

async function serveUntilReady(env: Record<string, string>) {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--data", await tempDir("embedder")], {
    cwd: ROOT,
    env: { ...process.env, SWITCHBOARD_LOG_FORMAT: "json", ...env },
  });
  child.stderr.resume();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stdout = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (/^ready on .*\n/m.test(text)) resolve(text);
    });
    void exited.then((code) => reject(new Error(`exited with ${code}: ${text}`)));
  });
  const address = /^switchboard listening on (\S+)/.exec(stdout)?.[1];
  const readyz = await fetch(`${address}/readyz`);
  return {
    readyLine: /^ready on .*$/m.exec(stdout)?.[0] ?? "",
    readyz: { status: readyz.status, body: (await readyz.json()) as Record<string, unknown> },
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

test("on the tfjs fallback the ready line and /readyz say so and why; natively /readyz names no embedder", async () => {
  const [fallback, native] = await Promise.all([
    serveUntilReady({ NODE_OPTIONS: `--import=${WITHOUT_ONNXRUNTIME}` }),
    serveUntilReady({}),
  ]);
  try {
    assert.match(
      fallback.readyLine,
      /embedder use-lite@[\d.]+ on tfjs-wasm, a fallback: onnxruntime-node did not load: .*unavailable on this platform\); console /,
    );
    assert.equal(fallback.readyz.status, 200);
    const embedder = fallback.readyz.body.embedder as { runtime: string; fallback: string };
    assert.equal(embedder.runtime, "tfjs-wasm");
    assert.match(embedder.fallback, /onnxruntime-node did not load/);

    assert.match(native.readyLine, /embedder use-lite@[\d.]+ on onnxruntime-node [\d.]+\); console /);
    assert.deepEqual(native.readyz, { status: 200, body: { status: "ready" } });
  } finally {
    await Promise.all([fallback.stop(), native.stop()]);
  }
});
