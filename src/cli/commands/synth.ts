import type { Command } from "../main.ts";

// Placeholder until issue 5 lands this command's engine.
export const command: Command = {
  summary: "Synthesize a tool from code, check it and run it in the sandbox",
  usage: "switchboard synth (not available yet: arrives with issue 5)",
  async run() {
    process.stderr.write("switchboard synth: not available yet (arrives with issue 5)\n");
    return 1;
  },
};
