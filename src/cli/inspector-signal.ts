// SIGUSR1 makes Node open its inspector on 127.0.0.1:9229, and whoever connects to it runs code in this
// process with all its keys and powers. Any process of the service's user may send the signal, a sandbox
// host escaped from its isolate included (Node's permission model does not cover process.kill), so the
// long-running commands take the signal themselves. A listener is enough to keep the inspector closed;
// debug with `node --inspect` instead.
import type { Logger } from "pino";

export function keepInspectorClosed(logger: Logger): void {
  process.on("SIGUSR1", () => {
    logger.warn("SIGUSR1 ignored: the inspector stays closed (start Node with --inspect to debug)");
  });
}
