import type { Command } from "../main.ts";

// Placeholder until issue 6 lands this command's engine.
export const command: Command = {
  summary: "Start the MCP stdio server (search_tools, call_tool, synthesize_tool)",
  usage: "switchboard mcp (not available yet: arrives with issue 6)",
  async run() {
    process.stderr.write("switchboard mcp: not available yet (arrives with issue 6)\n");
    return 1;
  },
};
