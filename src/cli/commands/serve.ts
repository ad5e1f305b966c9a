import type { Command } from "../main.ts";

// Placeholder until issue 6 lands this command's engine.
export const command: Command = {
  summary: "Start the HTTP service (route, execute, synthesize)",
  usage: "switchboard serve (not available yet: arrives with issue 6)",
  async run() {
    process.stderr.write("switchboard serve: not available yet (arrives with issue 6)\n");
    return 1;
  },
};
