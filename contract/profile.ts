// The wire as a profile (docs/service-profile.md): per operation, its method, path, query
// parameter names, paging, where a list's items are, the envelope, where an error status is
// found and the names of the body's fields. The built-in DEFAULT_PROFILE is today's contract,
// derived from the ONE route table (routes.ts); a profile file (JSON or YAML) overrides any part
// of it, key by key. The client, the local service and `doctor` all read a ResolvedProfile.
import { readFileSync } from "node:fs";
import { parseDocument } from "yaml";
import { MAX_PAGE_SIZE } from "./ids";
import {
  BODY_FIELDS,
  LIST_OPERATIONS,
  OPERATIONS,
  PATH_PLACEHOLDERS,
  REQUEST_PARAMETERS,
  type PathPlaceholder,
  ServiceProfileSchema,
  type ProfileOverride,
  type ResolvedOperation,
  type ResolvedProfile,
} from "./profile-schema";
import { PATH_PARAMETER, ROUTES, type OperationName } from "./routes";
import { SUPPORTED_TYPES } from "./values";

export * from "./profile-schema";

const identity = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, k])) as unknown as Record<K, string>;

function defaultOperation(operation: OperationName): ResolvedOperation {
  const route = ROUTES[operation];
  const isList = (LIST_OPERATIONS as readonly string[]).includes(operation);
  return {
    operation,
    title: route.title,
    retrySafe: route.retrySafe,
    authenticated: route.authenticated,
    method: route.method,
    path: route.path,
    query: identity(REQUEST_PARAMETERS),
    paging: isList ? { style: "page", page: "page", pageSize: "pageSize", maxSize: MAX_PAGE_SIZE } : { style: "none" },
    list: { items: "items", total: "total", next: null },
    // Every answer but the token's is enveloped today; the client reads either (the token is read both ways).
    envelope: {
      mode: "auto",
      payload: "response",
      status: ["statusCode", "code"],
      message: ["statusMessage", "message"],
    },
    fields: identity(BODY_FIELDS),
    success: "view",
  };
}

/** Today's contract (docs/service-contract.md), built in. */
export const DEFAULT_PROFILE: ResolvedProfile = {
  name: "default",
  description: "the contract of docs/service-contract.md",
  source: "built-in",
  operations: Object.fromEntries(OPERATIONS.map((op) => [op, defaultOperation(op)])) as Record<
    OperationName,
    ResolvedOperation
  >,
  semantics: {
    addReportsAlreadyAdded: true,
    configurationBeforeAdd: "readable",
    lastUpdated: "increasing",
    conflictCounts: true,
    errorStatusIn: "http",
    supportedTypes: [...SUPPORTED_TYPES],
    configureWrites: "whole",
    secretFieldTypes: [],
  },
};

/** A profile that cannot be used: the message names the source, the key and what was expected. */
export class ProfileError extends Error {
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`service profile ${source}: ${problems.join("; ")}`);
    this.name = "ProfileError";
  }
}

function keyOf(path: readonly PropertyKey[]): string {
  return (
    path
      .map((k) => (typeof k === "number" ? `[${k}]` : String(k)))
      .join(".")
      .replace(/\.\[/g, "[") || "(top)"
  );
}

function mergeOperation(base: ResolvedOperation, over: ProfileOverride | undefined): ResolvedOperation {
  if (over === undefined) return base;
  const pick = <T extends object>(a: T, b: Partial<T> | undefined): T =>
    ({ ...a, ...Object.fromEntries(Object.entries(b ?? {}).filter(([, v]) => v !== undefined)) }) as T;
  return {
    ...base,
    method: over.method ?? base.method,
    path: over.path ?? base.path,
    query: pick(base.query, over.query),
    paging: over.paging ?? base.paging,
    list: pick(base.list, over.list),
    envelope: pick(base.envelope, over.envelope),
    fields: pick(base.fields, over.fields),
    success: over.success ?? base.success,
  };
}

/**
 * The placeholders each operation's request can fill: the parameters it carries. A path naming
 * another would fail at its first request, blaming the package; it is refused at load instead.
 */
export const FILLABLE_PLACEHOLDERS: Record<OperationName, readonly PathPlaceholder[]> = {
  getToken: [],
  getConnector: ["accountId", "connectorId"],
  listConnectors: ["accountId"],
  addConnectors: ["accountId"],
  listAddedConnectors: ["accountId"],
  listSupportedConnectors: ["accountId", "connectorId"],
  getConfiguration: ["accountId", "connectorId"],
  configure: ["accountId", "connectorId"],
  removeConnector: ["accountId", "connectorId"],
};

function placeholderProblems(op: ResolvedOperation): string[] {
  const problems: string[] = [];
  const fillable: readonly string[] = FILLABLE_PLACEHOLDERS[op.operation];
  for (const match of op.path.matchAll(PATH_PARAMETER)) {
    const name = match[1] ?? "";
    if (fillable.includes(name)) continue;
    const expected = fillable.length === 0 ? "no placeholder" : `${fillable.map((p) => `{${p}}`).join(" or ")}`;
    const why = (PATH_PLACEHOLDERS as readonly string[]).includes(name)
      ? `${op.title} carries no ${name}, so {${name}} cannot be filled`
      : `{${name}} is not a parameter of ${op.title}`;
    problems.push(`operations.${op.operation}.path: ${why}; expected ${expected}`);
  }
  return problems;
}

/** A profile checked and laid over the default; throws ProfileError naming each bad key. */
export function resolveProfile(input: unknown, source: string): ResolvedProfile {
  const parsed = ServiceProfileSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${keyOf(issue.path)}: ${issue.message}`);
    if (parsed.error.issues.length > 5) problems.push(`(+${parsed.error.issues.length - 5} more)`);
    throw new ProfileError(source, problems);
  }
  const profile = parsed.data;
  const operations = Object.fromEntries(
    OPERATIONS.map((op) => {
      const withDefaults = mergeOperation(DEFAULT_PROFILE.operations[op], profile.defaults);
      // Paging of `defaults` applies to the lists only.
      const paged = (LIST_OPERATIONS as readonly string[]).includes(op)
        ? withDefaults
        : { ...withDefaults, paging: DEFAULT_PROFILE.operations[op].paging };
      return [op, mergeOperation(paged, profile.operations?.[op])];
    }),
  ) as Record<OperationName, ResolvedOperation>;
  const problems = Object.values(operations).flatMap(placeholderProblems);
  if (problems.length > 0) throw new ProfileError(source, problems);
  return {
    name: profile.name ?? (source === "built-in" ? "default" : source),
    description: profile.description ?? (source === "built-in" ? DEFAULT_PROFILE.description : ""),
    source,
    operations,
    semantics: { ...DEFAULT_PROFILE.semantics, ...stripUndefined(profile.semantics ?? {}) },
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** "GET /es/v2/connectors/{connectorId}": how messages name an operation of a profile. */
export function operationLabel(op: Pick<ResolvedOperation, "method" | "path">): string {
  return `${op.method} ${op.path}`;
}

/** The parsed text of a profile file: JSON by its `.json` extension, else YAML (of which JSON is a part). */
export function parseProfileText(text: string, source: string): unknown {
  if (/\.json$/i.test(source)) {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new ProfileError(source, [`not valid JSON (${(error as Error).message})`]);
    }
  }
  const document = parseDocument(text, { prettyErrors: false });
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const at = first?.linePos?.[0] ? ` at line ${first.linePos[0].line}` : "";
    throw new ProfileError(source, [`not valid YAML${at} (${first?.code ?? "syntax error"})`]);
  }
  return document.toJS() as unknown;
}

/** Reads, checks and resolves a profile file (JSON or YAML); every failure is a ProfileError. */
export function loadProfile(file: string): ResolvedProfile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ProfileError(file, [`cannot read the file (${code}); expected a JSON or YAML service profile`]);
  }
  return resolveProfile(parseProfileText(text, file), file);
}
