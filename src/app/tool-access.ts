// Who may use which tool. Every tool is everyone's except a pending one: a tool synthesized for an agent
// key's request, which that key alone routes to and runs until a maintainer promotes it, so one agent key
// cannot add to what the others are routed to (SECURITY.md, "Synthesis for agent keys").
import { isPending, type RegistryEntry, type SynthesisProvenance } from "../catalog/index.ts";

/** Who asks: a key's role and stable id (server/auth.ts). Absent: the local operator (CLI, library). */
export interface Viewer {
  role: "agent" | "maintainer";
  id: string;
}

const owns = (entry: RegistryEntry, viewer: Viewer | undefined): boolean =>
  viewer !== undefined && entry.synthesis?.owner === viewer.id;

/**
 * Whether `viewer` may see and run the tool by name: a pending tool is its owner's, and a maintainer's
 * (and the operator's) to review. For anyone else it does not exist: a 404 like an unknown name.
 */
export function canUse(entry: RegistryEntry, viewer: Viewer | undefined): boolean {
  return !isPending(entry) || viewer === undefined || viewer.role === "maintainer" || owns(entry, viewer);
}

/** Whether routing may offer the tool to `viewer`: a pending tool only to its owner, reviewers included. */
export function routesTo(entry: RegistryEntry, viewer: Viewer | undefined): boolean {
  return !isPending(entry) || owns(entry, viewer);
}

/**
 * What a listing shows of a synthesized tool's provenance: everything to a maintainer and to the owner; to
 * another agent key only its status and time, since the request that made it is the owner's words.
 */
export function provenanceView(
  synthesis: SynthesisProvenance,
  entry: RegistryEntry,
  viewer: Viewer | undefined,
): Omit<SynthesisProvenance, "owner" | "request"> & Partial<SynthesisProvenance> {
  if (viewer === undefined || viewer.role === "maintainer" || owns(entry, viewer)) return synthesis;
  const { owner: _owner, request: _request, ...shown } = synthesis;
  return shown;
}
