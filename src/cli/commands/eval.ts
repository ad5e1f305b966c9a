import type { Command } from "../main.ts";

// Placeholder until issue 3 lands this command's engine.
export const command: Command = {
  summary: "Measure routing quality on labelled queries",
  usage: "switchboard eval (not available yet: arrives with issue 3)",
  async run() {
    process.stderr.write("switchboard eval: not available yet (arrives with issue 3)\n");
    return 1;
  },
};
