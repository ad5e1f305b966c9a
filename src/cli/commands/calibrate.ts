import type { Command } from "../main.ts";

// Placeholder until issue 3 lands this command's engine.
export const command: Command = {
  summary: "Fit the score threshold and fusion weights from labelled queries",
  usage: "switchboard calibrate (not available yet: arrives with issue 3)",
  async run() {
    process.stderr.write("switchboard calibrate: not available yet (arrives with issue 3)\n");
    return 1;
  },
};
