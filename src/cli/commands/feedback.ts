import type { Command } from "../main.ts";

// Placeholder until issue 3 lands this command's engine.
export const command: Command = {
  summary: "Record a confirmed query → tool pair (learning from use)",
  usage: "switchboard feedback (not available yet: arrives with issue 3)",
  async run() {
    process.stderr.write("switchboard feedback: not available yet (arrives with issue 3)\n");
    return 1;
  },
};
