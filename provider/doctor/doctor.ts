// `doctor`'s read-only run: the token, one catalogue page, one connector, the added list, the
// supported list of one connector, the configuration of one added connector (if any), and two
// harmless probes (an unknown connector id: where an error's status is; the configuration of a
// connector not added: 404 or readable). Each route's finding says whether the current profile
// reads it and which profile keys would have to change.
import type { ResolvedProfile } from "../../contract/profile";
import type { OperationName } from "../../contract/routes";
import { CANDIDATES, inferPaging, pagingReads, probePaging, settled, type PagingFinding } from "./paging";
import {
  knownKeys,
  effectiveStatus,
  envelopeMismatches,
  envelopeOf,
  itemsOf,
  listMismatches,
  listOf,
  payloadOf,
  shapeOf,
  type EnvelopeSeen,
  type ListSeen,
} from "./shapes";
import { usableToken, type WireAnswer, type WireClient, type WireRequest } from "./wire-client";
import { SECRET_FIELDS_READ, secretFieldsOf, type ConnectorSecretFields } from "./secret-field-list";

export interface RouteFinding {
  operation: OperationName;
  label: string;
  httpStatus: number;
  /** The status the answer means (an error status inside a 2xx counts). */
  status: number;
  latencyMs: number;
  shape: string;
  envelope?: EnvelopeSeen;
  list?: ListSeen;
  paging?: PagingFinding;
  /** What the paging probe found or inferred, and the key to change; recomputed by settlePaging. */
  pagingNote?: string;
  pagingKey?: string;
  /** Profile keys (full: `operations.<op>.…`, `semantics.…`) the current profile has wrong. */
  keys: string[];
  notes: string[];
}

export interface DoctorReport {
  profile: ResolvedProfile;
  routes: RouteFinding[];
  semantics: Partial<ResolvedProfile["semantics"]>;
  /** Every mismatched key, once. */
  keys: string[];
  /** The lists whose paging doctor could not tell (exit 1: the output says what to run). */
  undetermined: OperationName[];
  /** Whether the current profile reads every route and every list's paging was told. */
  ok: boolean;
  /** The fields the provider treats as secret, per added connector read (absent: the added list was not read). */
  secretFields?: ConnectorSecretFields[];
}

/** A connector id that exists nowhere (16 alphanumerics, as ids are). */
export const UNKNOWN_ID = "0000doctor000000";

function finding(profile: ResolvedProfile, answer: WireAnswer, isList: boolean): RouteFinding {
  const op = profile.operations[answer.operation];
  const status = effectiveStatus(answer.status, answer.body);
  const keys: string[] = [];
  const notes: string[] = [];
  const result: RouteFinding = {
    operation: answer.operation,
    label: `${op.method} ${op.path}`,
    httpStatus: answer.status,
    status,
    latencyMs: answer.latencyMs,
    // Every answer is the token's or follows a request that carried it: only known keys are named.
    shape: shapeOf(answer.body, knownKeys(profile)),
    keys,
    notes,
  };
  const at = (key: string) => `operations.${answer.operation}.${key}`;
  if (status === 404 && answer.operation !== "getConfiguration") {
    keys.push(at("path"));
    notes.push("no such route: the path or method differs");
    return result;
  }
  if (status === 405) keys.push(at("method"));
  if (answer.redirectOrigin !== undefined) {
    notes.push(
      `redirected (${answer.status}) to ${answer.redirectOrigin}: doctor follows no redirect and sent nothing there, ` +
        "nor does the provider; set embedded:baseUrl to the address that answers",
    );
    return result;
  }
  if (status >= 300) {
    notes.push(status === 401 ? "refused: check the client id and secret" : `refused with ${status}`);
    return result;
  }
  if (answer.operation === "getToken") {
    const token = payloadOf(answer.body) as Record<string, unknown> | undefined;
    if (typeof token?.accessToken !== "string") notes.push("no accessToken in the answer");
    else if (!usableToken(token.accessToken)) {
      notes.push("the accessToken is not a valid header value (spaces or control characters): doctor sends it nowhere");
    }
    return result;
  }
  result.envelope = envelopeOf(answer.body);
  keys.push(...envelopeMismatches(op, result.envelope).map(at));
  if (isList) {
    result.list = listOf(payloadOf(answer.body), op.list);
    keys.push(...listMismatches(op, result.list).map(at));
  }
  return result;
}

export async function runDoctor(client: WireClient, accountId: string): Promise<DoctorReport> {
  const profile = client.profile;
  const routes: RouteFinding[] = [];
  const semantics: DoctorReport["semantics"] = {};
  const record = (answer: WireAnswer, isList = false) => {
    const f = finding(profile, answer, isList);
    routes.push(f);
    return f;
  };
  const account: WireRequest = { params: { accountId } };
  const small = (operation: OperationName): Record<string, number> => {
    const p = profile.operations[operation].paging;
    if (p.style === "page") return { [p.page]: p.firstPage ?? 1, [p.pageSize]: 5 };
    if (p.style === "offset") return { [p.offset]: 0, [p.size]: 5 };
    return {};
  };

  const token = record(await client.getToken());
  if (token.status >= 300 || token.notes.length > 0) return summary(profile, routes, semantics);

  const catalogueAnswer = await client.call("listConnectors", { ...account, rawQuery: small("listConnectors") });
  const catalogue = record(catalogueAnswer, true);
  const firstId = idOf(itemsOf(catalogueAnswer.body, profile.operations.listConnectors.list)?.[0]);
  if (firstId) record(await client.call("getConnector", { params: { accountId, connectorId: firstId } }));

  const addedAnswer = await client.call("listAddedConnectors", { ...account, rawQuery: small("listAddedConnectors") });
  const added = record(addedAnswer, true);
  const addedIds = (itemsOf(addedAnswer.body, profile.operations.listAddedConnectors.list) ?? [])
    .map(idOf)
    .filter((id): id is string => id !== undefined);

  if (firstId) {
    const supported = { params: { accountId, connectorId: firstId } };
    const answer = await client.call("listSupportedConnectors", {
      ...supported,
      rawQuery: small("listSupportedConnectors"),
    });
    const f = record(answer, true);
    if (f.status < 300) f.paging = await probePaging(client, f.operation, supported);
  }
  // The first added connector's configuration is a route finding too; each read lists its secret fields.
  const secretFields: ConnectorSecretFields[] = [];
  for (const [i, connectorId] of addedIds.slice(0, SECRET_FIELDS_READ).entries()) {
    const answer = await client.call("getConfiguration", { params: { accountId, connectorId } });
    if (i === 0) record(answer);
    secretFields.push(secretFieldsOf(connectorId, answer, profile));
  }
  if (catalogue.status < 300) catalogue.paging = await probePaging(client, catalogue.operation, account);
  if (added.status < 300) added.paging = await probePaging(client, added.operation, account);

  // Where an error's status is: Get Connector of an id that exists nowhere must be a 404.
  const unknown = await client.call("getConnector", { params: { accountId, connectorId: UNKNOWN_ID } });
  if (effectiveStatus(unknown.status, unknown.body) === 404) {
    semantics.errorStatusIn = unknown.status === 404 ? "http" : "body";
  }
  // Get Configuration of a connector not added: readable, or 404.
  const notAdded = (itemsOf(catalogueAnswer.body, profile.operations.listConnectors.list) ?? [])
    .map(idOf)
    .find((id) => id && !addedIds.includes(id));
  if (notAdded) {
    const answer = await client.call("getConfiguration", { params: { accountId, connectorId: notAdded } });
    const status = effectiveStatus(answer.status, answer.body);
    if (status === 404 || status < 300) semantics.configurationBeforeAdd = status === 404 ? "notFound" : "readable";
  }
  return { ...summary(profile, routes, semantics), ...(added.status < 300 ? { secretFields } : {}) };
}

/** The lists' paging: each told, or inferred from the lists that told and agree; the notes and keys to change. */
function settlePaging(profile: ResolvedProfile, routes: RouteFinding[]): OperationName[] {
  const lists = routes.filter((r) => r.paging);
  for (const r of lists) if (r.paging) delete r.paging.inferred;
  inferPaging(lists);
  const undetermined: OperationName[] = [];
  for (const f of lists) {
    const p = f.paging as PagingFinding;
    const op = profile.operations[f.operation];
    f.pagingKey = pagingReads(op, p) ? undefined : `operations.${f.operation}.paging`;
    if (p.inferred) {
      f.pagingNote =
        `paging inferred: ${p.inferred.candidate.label}, which ${p.inferred.from.join(" and ")} honour ` +
        `(this list: ${p.undetermined})`;
    } else if (p.undetermined) {
      undetermined.push(f.operation);
      f.pagingNote =
        `paging: could not tell (${p.undetermined}), and the other lists do not agree on one; ` +
        "run doctor --write-check --account-id <scratch sub-account> (it adds one connector and probes this list), " +
        "or add a connector and run doctor again";
    } else if (p.honoured.length === 0) {
      f.pagingNote = `paging: none of ${CANDIDATES.map((c) => c.label).join(", ")} is honoured`;
    } else if (p.cap !== undefined) {
      f.pagingNote =
        `paging: pages hold at most ${p.cap} item(s) whatever size is asked, while the list goes on; ` +
        `paging.maxSize ${p.cap} asks for no more`;
    } else f.pagingNote = undefined;
  }
  return undetermined;
}

function idOf(item: unknown): string | undefined {
  const id = (item as { connectorId?: unknown } | undefined)?.connectorId;
  return typeof id === "string" ? id : undefined;
}

/** The report's verdict from its findings; run again after `--write-check` probed the added list. */
export function summary(
  profile: ResolvedProfile,
  routes: RouteFinding[],
  semantics: DoctorReport["semantics"],
): DoctorReport {
  const undetermined = settlePaging(profile, routes);
  const keys = [...new Set(routes.flatMap((r) => (r.pagingKey ? [...r.keys, r.pagingKey] : r.keys)))];
  for (const [key, value] of Object.entries(semantics)) {
    if (JSON.stringify(value) !== JSON.stringify(profile.semantics[key as keyof typeof semantics])) {
      keys.push(`semantics.${key}`);
    }
  }
  const failed = routes.some(
    (r) =>
      (r.status >= 300 && !(r.operation === "getConfiguration" && r.status === 404)) ||
      (r.operation === "getToken" && r.notes.length > 0),
  );
  return {
    profile,
    routes,
    semantics,
    keys,
    undetermined,
    ok: keys.length === 0 && !failed && undetermined.length === 0,
  };
}

/** The paging a list settles on (told or inferred), for the suggested profile. */
export const settledPaging = (f: RouteFinding) => settled(f.paging)?.style;
