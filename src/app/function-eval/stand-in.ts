// The binding every evaluated function gets: a local HTTP server standing in for the functions' real
// implementations. It runs nothing; it records each call it receives (tool and arguments), so that the
// evaluation can compare what ran with what the answer says ran, and answers with a fixed object.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** What every stand-in call answers. */
export const STAND_IN_OUTPUT = { recorded: true } as const;

export class CallRecorder {
  readonly #server: Server;
  #calls: RecordedCall[] = [];
  #base = "";

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<CallRecorder> {
    const server = createServer();
    const recorder = new CallRecorder(server);
    server.on("request", async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      const tool = decodeURIComponent((req.url ?? "/").split("/").pop() ?? "");
      let args: Record<string, unknown> = {};
      try {
        args = body === "" ? {} : (JSON.parse(body) as Record<string, unknown>);
      } catch {
        res.writeHead(400).end();
        return;
      }
      recorder.#calls.push({ tool, arguments: args });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(STAND_IN_OUTPUT));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    recorder.#base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/call`;
    return recorder;
  }

  /** The URL a tool's binding posts to. */
  urlFor(tool: string): string {
    return `${this.#base}/${encodeURIComponent(tool)}`;
  }

  /** The calls received since the last take. */
  take(): RecordedCall[] {
    const calls = this.#calls;
    this.#calls = [];
    return calls;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, "close");
  }
}
