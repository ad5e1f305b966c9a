// `npm run services -- up DIR` / `down DIR`: a PostgreSQL and a Redis for running several replicas (and for
// the scale-out tests), on free loopback ports, with their data in DIR. `up` prints the two URLs as shell
// export lines; `up DIR postgres` or `down DIR redis` starts or stops one of them (the tests restart them).
// The servers are Debian's postgresql and redis-server packages (.ci/run installs them); PostgreSQL refuses
// to run as root, so as root its folder belongs to, and its commands run as, the `postgres` user.
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chmod, chown, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { z } from "zod";

const run = promisify(execFile);

export const INSTALL_HINT = "apt-get install -y postgresql redis-server (as root; .ci/run does it under CI)";

export type ServiceName = "postgres" | "redis";
const NAMES: ServiceName[] = ["postgres", "redis"];

const portsSchema = z.object({ postgres: z.number().int(), redis: z.number().int() });
type Ports = z.infer<typeof portsSchema>;

export interface Services {
  databaseUrl: string;
  redisUrl: string;
}

function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version ? join(root, version, "bin") : undefined;
}

function redisBin(): string | undefined {
  return ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((path) => existsSync(path));
}

/** Why the services cannot start here, or undefined when both binaries are installed. */
export function missingBinaries(): string | undefined {
  const missing = [
    ...(postgresBin() ? [] : ["PostgreSQL (pg_ctl under /usr/lib/postgresql)"]),
    ...(redisBin() ? [] : ["redis-server"]),
  ];
  if (missing.length === 0) return undefined;
  return `${missing.join(" and ")} not installed; install with: ${INSTALL_HINT}`;
}

const asRoot = process.getuid?.() === 0;

/** PostgreSQL's tools, as the postgres user when we are root. */
function postgresCommand(tool: string, args: string[]) {
  const bin = join(postgresBin() as string, tool);
  return asRoot ? run("runuser", ["-u", "postgres", "--", bin, ...args]) : run(bin, args);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

async function portsOf(dir: string): Promise<Ports> {
  const file = join(dir, "ports.json");
  if (existsSync(file)) return portsSchema.parse(JSON.parse(await readFile(file, "utf8")));
  const ports = { postgres: await freePort(), redis: await freePort() };
  await writeFile(file, JSON.stringify(ports));
  return ports;
}

export function urlsOf(ports: Ports): Services {
  return {
    databaseUrl: `postgres://postgres@127.0.0.1:${ports.postgres}/postgres`,
    redisUrl: `redis://127.0.0.1:${ports.redis}`,
  };
}

/** The first folder on the way to `dir` that `user` may not enter, or undefined. */
async function firstClosedFolder(user: string, dir: string): Promise<string | undefined> {
  const chain: string[] = [];
  for (let folder = resolve(dir); ; folder = dirname(folder)) {
    chain.unshift(folder);
    if (folder === dirname(folder)) break;
  }
  for (const folder of chain) {
    const enters = await run("runuser", ["-u", user, "--", "test", "-x", folder]).then(
      () => true,
      () => false,
    );
    if (!enters) return folder;
  }
  return undefined;
}

async function startPostgres(dir: string, port: number): Promise<void> {
  const data = join(dir, "postgres");
  if (!existsSync(join(data, "PG_VERSION"))) {
    await mkdir(data, { recursive: true });
    if (asRoot) {
      // The postgres user must reach the folder (mkdtemp makes 0700 ones) and own its data.
      await chmod(dir, 0o755);
      const closed = await firstClosedFolder("postgres", dir);
      if (closed)
        throw new Error(
          `PostgreSQL runs as the postgres user, which cannot enter ${closed} on the way to ${resolve(dir)}; ` +
            `choose a DIR outside private folders (mktemp -d makes them), or allow it with chmod o+x ${closed}`,
        );
      const { stdout } = await run("id", ["-u", "postgres"]);
      const { stdout: group } = await run("id", ["-g", "postgres"]);
      await chown(data, Number(stdout), Number(group));
    }
    await postgresCommand("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
  }
  // Already running (an `up` repeated): pg_ctl status exits 0.
  if (
    await postgresCommand("pg_ctl", ["-D", data, "status"]).then(
      () => true,
      () => false,
    )
  )
    return;
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${data} -c fsync=on -c max_connections=200`;
  await postgresCommand("pg_ctl", ["-D", data, "-l", join(data, "server.log"), "-o", options, "-w", "start"]);
}

async function stopPostgres(dir: string): Promise<void> {
  const data = join(dir, "postgres");
  if (!existsSync(join(data, "postmaster.pid"))) return;
  await postgresCommand("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
}

async function startRedis(dir: string, port: number): Promise<void> {
  const data = join(dir, "redis");
  await mkdir(data, { recursive: true });
  if (await reachable(port)) return;
  await run(redisBin() as string, [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    data,
    "--daemonize",
    "yes",
    "--pidfile",
    join(data, "redis.pid"),
    "--logfile",
    join(data, "redis.log"),
    "--save",
    "",
    "--appendonly",
    "no",
  ]);
  // --daemonize returns before the port accepts connections.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await reachable(port)) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`redis-server did not listen on 127.0.0.1:${port} within 10 s`);
}

function reachable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
  });
}

async function stopRedis(dir: string): Promise<void> {
  const pidFile = join(dir, "redis", "redis.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, "utf8")).trim());
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    await rm(pidFile, { force: true });
    return;
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && existsSync(pidFile)) await new Promise((done) => setTimeout(done, 50));
}

/** Starts both services (or one), reusing DIR's ports when it has been up before. */
export async function up(folder: string, only?: ServiceName): Promise<Services> {
  const missing = missingBinaries();
  if (missing) throw new Error(missing);
  const dir = resolve(folder);
  await mkdir(dir, { recursive: true });
  const ports = await portsOf(dir);
  if (only !== "redis") await startPostgres(dir, ports.postgres);
  if (only !== "postgres") await startRedis(dir, ports.redis);
  return urlsOf(ports);
}

export async function down(folder: string, only?: ServiceName): Promise<void> {
  const dir = resolve(folder);
  if (only !== "redis") await stopPostgres(dir);
  if (only !== "postgres") await stopRedis(dir);
}

async function main(argv: string[]): Promise<void> {
  const [action, dir, only] = argv;
  if ((action !== "up" && action !== "down") || !dir || (only && !NAMES.includes(only as ServiceName))) {
    process.stderr.write("usage: npm run services -- up|down DIR [postgres|redis]\n");
    process.exitCode = 2;
    return;
  }
  if (action === "down") {
    await down(dir, only as ServiceName | undefined);
    return;
  }
  const urls = await up(dir, only as ServiceName | undefined);
  process.stdout.write(
    `export SWITCHBOARD_DATABASE_URL=${urls.databaseUrl}\nexport SWITCHBOARD_REDIS_URL=${urls.redisUrl}\n`,
  );
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((error: Error) => {
    process.stderr.write(`services: ${error.message}\n`);
    process.exitCode = 1;
  });
}
