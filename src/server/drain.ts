// Graceful shutdown with an answer for every accepted request. While draining, running calls may finish;
// when the deadline passes, the ones still running or queued are cancelled and answered 503 shutting_down
// instead of having their connection cut.
import type { ServerResponse } from "node:http";
import { HttpError } from "./problems.ts";

const SHUTTING_DOWN = {
  error: {
    code: "shutting_down",
    message: "the service is shutting down and did not finish this request before its drain deadline",
  },
};

export class Drain {
  readonly #controller = new AbortController();
  readonly #deadline: Promise<never>;
  #fail: (error: Error) => void = () => {};
  #timer: NodeJS.Timeout | undefined;
  /** Responses whose handler took the socket over (MCP), answered by hand at the deadline. */
  readonly #hijacked = new Set<ServerResponse>();
  draining = false;

  constructor() {
    this.#deadline = new Promise<never>((_, reject) => {
      this.#fail = reject;
    });
    // Nobody may be racing against it yet; an unhandled rejection would crash the process.
    this.#deadline.catch(() => {});
  }

  /** Aborted at the deadline, so queued calls leave their queue and running ones are cancelled. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  start(deadlineMs: number): void {
    if (this.draining) return;
    this.draining = true;
    this.#timer = setTimeout(() => this.#expire(), deadlineMs);
    this.#timer.unref();
  }

  /** The handler's answer, or a 503 shutting_down error once the deadline has passed. */
  race<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.#deadline]);
  }

  hijacked(response: ServerResponse): void {
    this.#hijacked.add(response);
    response.once("close", () => this.#hijacked.delete(response));
  }

  #expire(): void {
    this.#fail(new HttpError(503, SHUTTING_DOWN.error.code, SHUTTING_DOWN.error.message));
    this.#controller.abort(new Error("the service is shutting down"));
    for (const response of this.#hijacked) {
      // A stream already under way can only be ended; one not started yet gets the error shape.
      if (response.headersSent) response.end();
      else
        response
          .writeHead(503, { "content-type": "application/json", connection: "close" })
          .end(JSON.stringify(SHUTTING_DOWN));
    }
  }
}
