// The app opens while the server already answers (/healthz, MCP initialize): every plugin reaches it through
// this gate, which answers 503 not_ready until the index is loaded, or with the reason it failed to open.
import type { Switchboard } from "../app/index.ts";
import { HttpError } from "./problems.ts";

export class AppGate {
  #app: Switchboard | undefined;
  #failed: Error | undefined;

  constructor(opening: Promise<Switchboard>) {
    opening.then(
      (app) => {
        this.#app = app;
      },
      (error: Error) => {
        this.#failed = error;
      },
    );
  }

  /** The app once it is open, else undefined (for what may be skipped until then, such as a metric). */
  get current(): Switchboard | undefined {
    return this.#app;
  }

  /** The app, or a 503 not_ready naming why it is not there yet. */
  ready(): Switchboard {
    if (this.#app) return this.#app;
    throw new HttpError(
      503,
      "not_ready",
      this.#failed
        ? `the service failed to start: ${this.#failed.message}`
        : "the service is still loading its index",
    );
  }
}
