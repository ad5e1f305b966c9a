// A lean HTTP/1.1 load generator for bench:service's uncached route phase: `connections` keep-alive
// sockets, each sending one POST at a time and reading the whole answer by its content-length. Written by
// hand rather than using autocannon there because the load generator shares the machine's two cores with
// the service: autocannon's per-request work (a JavaScript HTTP parser, a deep copy of every request built
// by setupRequest) cost about twice this one's CPU per route (docs/performance.md, issue 29), CPU the
// service's threads then lack. The requests and answers are byte for byte what any HTTP client sends and gets.
import { connect } from "node:net";

export interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  path: string;
  connections: number;
  seconds: number;
  /** The JSON body of the next request; called once per request. */
  body(): string;
}

const HEADER_END = Buffer.from("\r\n\r\n");

export async function postLoad(options: LoadOptions): Promise<LoadResult> {
  const { hostname, port } = new URL(options.url);
  const head = `POST ${options.path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\ncontent-length: `;
  const latencies: number[] = [];
  let non2xx = 0;
  const started = performance.now();
  const end = started + options.seconds * 1000;

  const connection = () =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      socket.setNoDelay(true);
      let sentAt = 0;
      /** Bytes of the answer's body still to read; -1 while its head is not complete. */
      let remaining = -1;
      let pending: Buffer | undefined;
      const send = () => {
        if (performance.now() >= end) {
          socket.end();
          resolve();
          return;
        }
        const body = options.body();
        sentAt = performance.now();
        socket.write(`${head}${Buffer.byteLength(body)}\r\n\r\n${body}`);
      };
      socket.on("data", (data: Buffer) => {
        let chunk = pending ? Buffer.concat([pending, data]) : data;
        pending = undefined;
        if (remaining < 0) {
          const at = chunk.indexOf(HEADER_END);
          if (at < 0) {
            pending = chunk;
            return;
          }
          const text = chunk.toString("latin1", 0, at);
          const length = /\r\ncontent-length: *(\d+)/i.exec(text)?.[1];
          if (length === undefined) {
            socket.destroy();
            reject(new Error(`an answer without content-length: ${text.split("\r\n")[0]}`));
            return;
          }
          if (text.charCodeAt(9) !== 50) non2xx++;
          remaining = Number(length);
          chunk = chunk.subarray(at + HEADER_END.length);
        }
        remaining -= chunk.length;
        if (remaining > 0) return;
        if (remaining < 0) {
          socket.destroy();
          reject(new Error("more bytes than the answer's content-length (one request in flight per socket)"));
          return;
        }
        remaining = -1;
        latencies.push(performance.now() - sentAt);
        send();
      });
      socket.once("error", reject);
      socket.once("close", () => {
        if (performance.now() < end) reject(new Error("the service closed a connection mid-run"));
      });
      socket.once("connect", send);
    });

  await Promise.all(Array.from({ length: options.connections }, connection));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Number((latencies[Math.floor(q * (latencies.length - 1))] ?? 0).toFixed(1));
  const sum = latencies.reduce((total, latency) => total + latency, 0);
  return {
    requests: { average: latencies.length / seconds, total: latencies.length },
    latency: {
      p50: at(0.5),
      p99: at(0.99),
      average: Number((sum / Math.max(1, latencies.length)).toFixed(1)),
      max: at(1),
    },
    errors: 0,
    timeouts: 0,
    non2xx,
  };
}
