import type { Command } from "../main.ts";

// Placeholder until issue 3 lands this command's engine.
export const command: Command = {
  summary: "Build or update the search index of a catalog",
  usage: "switchboard index (not available yet: arrives with issue 3)",
  async run() {
    process.stderr.write("switchboard index: not available yet (arrives with issue 3)\n");
    return 1;
  },
};
