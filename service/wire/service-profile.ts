// The profile the local service serves (`--profile FILE`, buildApp's `profile`), read by the
// contract's own loader (contract/profile.ts), so the service and the client read one file the
// same way. What the service takes from it: each route's method and path, its parameters'
// wire names (the sub-account in the path or the query), the list containers and paging, the
// envelope, the success bodies, and the semantics it simulates (Add without `alreadyAdded`,
// Get Configuration 404 before Add, no `lastUpdated`, a 409 without counts, errors in a 2xx).
import {
  DEFAULT_PROFILE,
  loadProfile,
  resolveProfile,
  type ResolvedOperation,
  type ResolvedProfile,
} from "../../contract/profile";

/** A resolved profile, a profile file's path, or a profile's parsed content. */
export type ProfileInput = ResolvedProfile | string | Record<string, unknown>;

function isResolved(input: object): input is ResolvedProfile {
  return "source" in input && "operations" in input && "semantics" in input;
}

/** The profile a buildApp option names (a file is read now: a bad one fails at start, naming the key). */
export function serviceProfile(input: ProfileInput | undefined): ResolvedProfile | undefined {
  if (input === undefined) return undefined;
  if (typeof input === "string") return loadProfile(input);
  return isResolved(input) ? input : resolveProfile(input, "buildApp profile");
}

export { DEFAULT_PROFILE };

/** `a.b.c` of a body: "" is the body itself. */
export function getPath(value: unknown, path: string): unknown {
  if (path === "") return value;
  let at: unknown = value;
  for (const key of path.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Sets `a.b.c` in `target`, making the objects on the way. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let at = target;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    if (next === null || typeof next !== "object") at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys[keys.length - 1] as string] = value;
}

/** Whether a parameter (by its client name) is a path parameter of the operation. */
export const inPath = (op: ResolvedOperation, name: string): boolean => op.path.includes(`{${name}}`);

/** The route's path as fastify registers it: `{connectorId}` → `:connectorId`. */
export const fastifyPathOf = (op: ResolvedOperation): string => op.path.replace(/\{([A-Za-z]+)\}/g, ":$1");
