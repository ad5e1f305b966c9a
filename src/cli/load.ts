// The composition root and the servers are loaded when a command runs, not when the CLI starts, so
// `--help` and usage mistakes answer at once and each command pays only for what it uses.
export const loadApp = () => import("../app/index.ts");
export const loadServer = () => import("../server/index.ts");
