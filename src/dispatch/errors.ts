// Errors the dispatcher raises itself. Each carries the class it is reported under, so classification
// never has to guess about them.
import type { SchemaIssue } from "../catalog/index.ts";
import type { ErrorClass } from "./types.ts";

export class DispatchError extends Error {
  readonly class: ErrorClass;
  constructor(errorClass: ErrorClass, message: string) {
    super(message);
    this.name = "DispatchError";
    this.class = errorClass;
  }
}

export class CallTimeoutError extends DispatchError {
  constructor(timeoutMs: number, message = `no answer within ${timeoutMs} ms`) {
    super("timeout", message);
  }
}

export class CancelledError extends DispatchError {
  constructor() {
    super("cancelled", "the batch was cancelled");
  }
}

export class SchemaError extends DispatchError {
  readonly issues: SchemaIssue[];
  constructor(what: "arguments" | "output", issues: SchemaIssue[]) {
    const first = issues
      .slice(0, 3)
      .map((i) => `${i.path || "(root)"} ${i.message}`)
      .join("; ");
    super(
      "schema",
      `${what} do not match the tool's ${what === "arguments" ? "input" : "output"}Schema: ${first}`,
    );
    this.issues = issues;
  }
}
