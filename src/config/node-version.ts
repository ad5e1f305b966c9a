// Switchboard runs on Node 24 or newer: its sandbox hosts use Node's permission model (--permission) and
// it loads TypeScript and native modules built for Node 24. An older Node is refused in one sentence,
// before anything starts, rather than failing every call later.

export const REQUIRED_NODE_MAJOR = 24;

/** The first half of the refusal, the same from the CLI (bin/switchboard.js says it too) and the library. */
export function nodeTooOld(version: string = process.versions.node): string | undefined {
  if (Number(version.split(".")[0]) >= REQUIRED_NODE_MAJOR) return undefined;
  return `switchboard needs Node.js ${REQUIRED_NODE_MAJOR} or newer, but this is Node.js ${version}`;
}
