// The parent's side of the capabilities: a running tool's request arrives from its host as
// (capability, JSON text); the grant comes from the call's own record, never from the host, and the
// request is checked and performed by the functions in capabilities.ts. A capability is one entry of
// `performers` plus its ctx method in sandbox/prelude.js.

import { Worker } from "node:worker_threads";
import type { Capabilities } from "../catalog/index.ts";
import { moduleFile } from "../config/index.ts";
import type { EgressPolicy } from "../egress/index.ts";
import { proxiedFetch } from "./capabilities.ts";
import type { UpstreamFault } from "./errors.ts";

type Performer = (
  grant: unknown,
  json: string,
  signal: AbortSignal,
  onFault: (fault: UpstreamFault) => void,
) => Promise<string>;

/** The capabilities that are requests to the parent (`console` is the prelude's own). */
const REQUESTS = ["fetch", "html", "browser"] as const;

/** Names of the request capabilities a tool was granted, for the prelude to expose on ctx. */
export function grantedNames(capabilities: Capabilities): string[] {
  return REQUESTS.filter((name) => capabilities[name] !== undefined && capabilities[name] !== false);
}

/** One worker thread for ctx.html, restarted when a parse outlives the call that asked for it. */
class HtmlWorker {
  private worker: Worker | undefined;
  private lastId = 0;
  private readonly waiting = new Map<number, { resolve: (s: string) => void; reject: (e: Error) => void }>();

  select(json: string, signal: AbortSignal): Promise<string> {
    if (signal.aborted) return Promise.reject(new Error("html: the call ended"));
    const worker = this.start();
    const id = ++this.lastId;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        // The parse may be stuck on huge markup: the only way to reclaim the thread is to end it.
        this.waiting.delete(id);
        if (this.worker === worker) this.stop(new Error("html: the call ended during parsing"));
        reject(new Error("html: the call ended"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(id, {
        resolve: (payload) => {
          signal.removeEventListener("abort", onAbort);
          resolve(payload);
        },
        reject: (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      worker.postMessage({ id, json });
    });
  }

  close(): void {
    this.stop(new Error("html: the sandbox was closed"));
  }

  private start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(moduleFile("./html-thread.ts", import.meta.url));
    worker.unref();
    worker.on("message", ({ id, ok, payload }: { id: number; ok: boolean; payload: string }) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      if (ok) waiting?.resolve(payload);
      else waiting?.reject(new Error(payload));
    });
    worker.on("error", (error) => this.stop(error));
    worker.on("exit", () => {
      if (this.worker === worker) this.stop(new Error("html: the parser thread stopped"));
    });
    this.worker = worker;
    return worker;
  }

  private stop(error: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}

/**
 * Performs ctx.browser requests (src/browser's supervisor): JSON in, JSON out. A call's page lives until
 * the call's signal aborts, which the sandbox does when the call is answered. Passed in, so synth needs
 * no Chromium.
 */
export interface BrowserCapability {
  perform(grant: NonNullable<Capabilities["browser"]>, json: string, signal: AbortSignal): Promise<string>;
}

export class CapabilityRequests {
  private readonly html = new HtmlWorker();
  private readonly egress: EgressPolicy | undefined;
  private readonly browser: BrowserCapability | undefined;
  private readonly performers: Record<(typeof REQUESTS)[number], Performer> = {
    fetch: (grant, json, signal, onFault) =>
      proxiedFetch(grant as NonNullable<Capabilities["fetch"]>, json, signal, this.egress, onFault),
    html: (_grant, json, signal) => this.html.select(json, signal),
    browser: async (grant, json, signal) => {
      if (this.browser === undefined)
        throw new Error("unavailable: this service was started without a browser");
      return this.browser.perform(grant as NonNullable<Capabilities["browser"]>, json, signal);
    },
  };

  /**
   * `egress`: where ctx.fetch may connect (capabilities.ts decides without one); `browser`: what serves
   * ctx.browser (a tool granted it fails when it uses it without one).
   */
  constructor(egress: EgressPolicy | undefined, browser?: BrowserCapability) {
    this.egress = egress;
    this.browser = browser;
  }

  /** Whether `name` is a capability this tool holds; a host asking for any other one is not to be trusted. */
  isGranted(capabilities: Capabilities, name: string): boolean {
    return grantedNames(capabilities).includes(name);
  }

  /**
   * Performs a granted request; the answer (or the refusal's message) goes back into the tool, and an
   * upstream's failure also to `onFault`.
   */
  perform(
    capabilities: Capabilities,
    name: string,
    json: string,
    signal: AbortSignal,
    onFault: (fault: UpstreamFault) => void = () => {},
  ): Promise<string> {
    const known = name as (typeof REQUESTS)[number];
    return this.performers[known](capabilities[known], json, signal, onFault);
  }

  close(): void {
    this.html.close();
  }
}
