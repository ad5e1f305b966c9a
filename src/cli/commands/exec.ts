import type { Command } from "../main.ts";

// Placeholder until issue 4 lands this command's engine.
export const command: Command = {
  summary: "Execute tool calls through the resilient dispatcher",
  usage: "switchboard exec (not available yet: arrives with issue 4)",
  async run() {
    process.stderr.write("switchboard exec: not available yet (arrives with issue 4)\n");
    return 1;
  },
};
