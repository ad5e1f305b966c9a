// Stage: the result cache of a read-only tool with `policy.cache`. A fresh answer is served at once; a
// stale one (past ttlMs, inside staleMs) is served at once with its age while a refresh runs the rest of
// the pipeline in the background; a miss runs the pipeline and stores what was served. When everything
// after this stage failed, an answer inside the stale window is served instead, with a warning.
import type { Tool } from "../../catalog/index.ts";
import type { ResultCache } from "../cache.ts";
import { Call } from "../call.ts";
import type { FallbackNotice } from "../events.ts";
import { Pending } from "../pending.ts";
import type { Next, Stage } from "../pipeline.ts";
import { lastResortFor, messageOf } from "./last-resort.ts";

export class CachedAnswers implements Stage {
  readonly #tool: Tool;
  readonly #cache: ResultCache;
  readonly #ttlMs: number;
  readonly #staleMs: number;
  readonly #lastProvider: string;
  readonly #fallback: (notice: FallbackNotice) => void;
  /** Session context keys any of the tool's providers reads: the answer depends on them as on arguments. */
  readonly #contextKeys: string[];

  constructor(
    tool: Tool,
    cache: ResultCache,
    settings: { ttlMs: number; staleMs: number },
    lastProvider: string,
    fallback: (notice: FallbackNotice) => void,
  ) {
    this.#tool = tool;
    this.#cache = cache;
    this.#ttlMs = settings.ttlMs;
    this.#staleMs = settings.staleMs;
    this.#lastProvider = lastProvider;
    this.#fallback = fallback;
    const bindings = [tool.binding, ...(tool.policy?.fallback ?? [])];
    this.#contextKeys = [...new Set(bindings.flatMap((b) => b?.context?.read ?? []))].sort();
  }

  /** One caller's answer never reaches a caller whose session context differs in a key the tool reads. */
  #key(call: Call): string {
    const key = this.#cache.key(this.#tool, call.args);
    if (this.#contextKeys.length === 0) return key;
    const read = this.#contextKeys.map((k) => (Object.hasOwn(call.snapshot, k) ? call.snapshot[k] : null));
    return `${key}|context:${JSON.stringify(read)}`;
  }

  execute(call: Call, next: Next): Pending {
    const key = this.#key(call);
    const hit = this.#cache.get(key, this.#ttlMs);
    if (hit) {
      call.provider = hit.provider;
      call.ageMs = hit.ageMs;
      call.stale = !hit.fresh;
      if (!hit.fresh) {
        call.warn(`stale answer (${hit.ageMs} ms old) served while it is refreshed`);
        this.#revalidate(call, key, next);
      }
      return Pending.of(call.answer(hit.output));
    }
    call.cacheKey = key;
    return next(call).after(this.#afterRun);
  }

  readonly #afterRun = (call: Call): Call => {
    const key = call.cacheKey as string;
    if (call.outcome === "answered") this.#store(key, call.output, call.provider ?? "");
    else if (call.outcome === "failed") this.#staleAfterFailure(call, key, call.failure);
    return call;
  };

  #store(key: string, output: unknown, provider: string): void {
    this.#cache.set(key, output, provider, this.#ttlMs, this.#staleMs);
  }

  #revalidate(call: Call, key: string, next: Next): void {
    this.#cache.revalidate(key, () => this.#refresh(call, key, next));
  }

  /** Stale-while-revalidate: the rest of the pipeline again, outside the call that got the stale answer. */
  async #refresh(served: Call, key: string, next: Next): Promise<void> {
    const call = await next(
      new Call(served.request, served.tool, undefined, served.snapshot, served.key),
    ).promise();
    if (call.outcome === "answered") this.#store(key, call.output, call.provider ?? "");
  }

  #staleAfterFailure(call: Call, key: string, error: unknown): void {
    const reason = lastResortFor(call, error, this.#tool.policy?.errors);
    const stale = reason === undefined ? undefined : this.#cache.get(key, this.#ttlMs);
    if (reason === undefined || !stale) return;
    this.#fallback({ callId: call.id, tool: this.#tool.name, from: this.#lastProvider, to: "cache", reason });
    call.provider = stale.provider;
    call.stale = true;
    call.ageMs = stale.ageMs;
    call.warn(`every provider failed (${messageOf(error)}); cached answer served`);
    call.answer(stale.output);
  }
}
