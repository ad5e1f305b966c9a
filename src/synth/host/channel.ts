// Length-prefixed JSON frames over the socket between the parent and a sandbox host, used by both ends. Written by hand because Node's own IPC channel has no size limit:
// it reads and parses a message of any length before anyone can look at it. Here a frame announces its
// length first, and a frame over the limit is refused before its body is buffered.
import type { Duplex } from "node:stream";

const HEADER_BYTES = 4;

export interface Channel {
  send(message: unknown): void;
  /** Where each parsed message goes; may be replaced (the first message decides who reads the rest). */
  receive: (message: unknown) => void;
  /** Called once, with a reason, for a frame over the size limit or a body that is not JSON. */
  broken: (reason: string) => void;
  /** Changes the size limit of the frames still to come. */
  setLimit(maxBytes: number): void;
}

/** Frames on `stream`, each at most `maxBytes`; nothing is read after a broken frame. */
export function openChannel(stream: Duplex, initialMaxBytes: number): Channel {
  let maxBytes = initialMaxBytes;
  let chunks: Buffer[] = [];
  let buffered = 0;
  let expected = -1;
  let broken = false;

  const fail = (reason: string) => {
    if (broken) return;
    broken = true;
    chunks = [];
    stream.removeListener("data", onData);
    channel.broken(reason);
  };

  const take = (bytes: number): Buffer => {
    const all = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, buffered);
    const taken = all.subarray(0, bytes);
    const rest = all.subarray(bytes);
    chunks = rest.length > 0 ? [rest] : [];
    buffered = rest.length;
    return taken;
  };

  function onData(chunk: Buffer) {
    chunks.push(chunk);
    buffered += chunk.length;
    while (!broken) {
      if (expected < 0) {
        if (buffered < HEADER_BYTES) return;
        expected = take(HEADER_BYTES).readUInt32BE(0);
        if (expected > maxBytes)
          return fail(`a message of ${expected} bytes is over the ${maxBytes}-byte limit`);
      }
      if (buffered < expected) return;
      const body = take(expected);
      expected = -1;
      let message: unknown;
      try {
        message = JSON.parse(body.toString("utf8"));
      } catch {
        return fail("a message is not JSON");
      }
      channel.receive(message);
    }
  }

  const channel: Channel = {
    receive: () => {},
    broken: () => {},
    setLimit(limit) {
      maxBytes = limit;
    },
    send(message) {
      if (broken || stream.destroyed) return;
      const json = JSON.stringify(message);
      const length = Buffer.byteLength(json);
      const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
      frame.writeUInt32BE(length, 0);
      frame.write(json, HEADER_BYTES);
      stream.write(frame);
    },
  };
  stream.on("data", onData);
  return channel;
}
