import { UsageError } from "../errors.ts";

// Placeholder: OpenAPI and MCP import arrive with the rest of issue 2.
export async function importCommand(_argv: string[]): Promise<number> {
  throw new UsageError("catalog import is not available yet");
}
