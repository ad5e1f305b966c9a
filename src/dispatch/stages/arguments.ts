// Stage: the arguments against the tool's inputSchema. A mismatch is the `schema` outcome with the fields
// that failed; nothing runs and nothing is retried.
import { type SchemaCheck, type SchemaIssue, schemaCheck, type Tool } from "../../catalog/index.ts";
import type { Call } from "../call.ts";
import { SchemaError } from "../errors.ts";
import { Pending } from "../pending.ts";
import type { Next, Stage } from "../pipeline.ts";

export class ArgumentCheck implements Stage {
  readonly #tool: Tool;
  readonly #reject: (call: Call, error: SchemaError) => void;
  /** Compiled on first use, in the call, so a schema ajv cannot compile fails that call. */
  #check: SchemaCheck | undefined;

  constructor(tool: Tool, rejected: (call: Call, error: SchemaError) => void) {
    this.#tool = tool;
    this.#reject = rejected;
    this.#check = undefined;
  }

  execute(call: Call, next: Next): Pending {
    const issues = (this.#check ?? this.#compile())(call.args);
    return issues ? this.#rejected(call, issues) : next(call);
  }

  #compile(): SchemaCheck {
    this.#check = schemaCheck(this.#tool.inputSchema);
    return this.#check;
  }

  #rejected(call: Call, issues: SchemaIssue[]): Pending {
    const error = new SchemaError("arguments", issues);
    this.#reject(call, error);
    return Pending.of(call.fail(error));
  }
}
