import type { Command } from "../main.ts";

// Placeholder until issue 3 lands this command's engine.
export const command: Command = {
  summary: "Find the tools for a query",
  usage: "switchboard route (not available yet: arrives with issue 3)",
  async run() {
    process.stderr.write("switchboard route: not available yet (arrives with issue 3)\n");
    return 1;
  },
};
