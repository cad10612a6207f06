// `doctor`'s read-only run: the token, one catalogue page, one connector, the added list, the
// supported list of one connector, the configuration of one added connector (if any), and two
// harmless probes (an unknown connector id: where an error's status is; the configuration of a
// connector not added: 404 or readable). Each route's finding says whether the current profile
// reads it and which profile keys would have to change.
import type { ResolvedProfile } from "../../contract/profile";
import type { OperationName } from "../../contract/routes";
import { CANDIDATES, pagingReads, probePaging, type PagingFinding } from "./paging";
import {
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
import type { WireAnswer, WireClient, WireRequest } from "./wire-client";

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
  /** Whether the current profile reads every route. */
  ok: boolean;
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
    shape: shapeOf(answer.body),
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
  if (status >= 300) {
    notes.push(status === 401 ? "refused: check the client id and secret" : `refused with ${status}`);
    return result;
  }
  if (answer.operation === "getToken") {
    const token = payloadOf(answer.body) as Record<string, unknown> | undefined;
    if (typeof token?.accessToken !== "string") notes.push("no accessToken in the answer");
    return result;
  }
  result.envelope = envelopeOf(answer.body);
  keys.push(...envelopeMismatches(op, result.envelope).map(at));
  if (isList) {
    result.list = listOf(payloadOf(answer.body));
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
    if (p.style === "page") return { [p.page]: 1, [p.pageSize]: 5 };
    if (p.style === "offset") return { [p.offset]: 0, [p.size]: 5 };
    return {};
  };

  const token = record(await client.getToken());
  if (token.status >= 300) return summary(profile, routes, semantics);

  const catalogueAnswer = await client.call("listConnectors", { ...account, rawQuery: small("listConnectors") });
  const catalogue = record(catalogueAnswer, true);
  const firstId = idOf(itemsOf(catalogueAnswer.body)?.[0]);
  if (firstId) record(await client.call("getConnector", { params: { accountId, connectorId: firstId } }));

  const addedAnswer = await client.call("listAddedConnectors", { ...account, rawQuery: small("listAddedConnectors") });
  const added = record(addedAnswer, true);
  const addedIds = (itemsOf(addedAnswer.body) ?? []).map(idOf).filter((id): id is string => id !== undefined);

  if (firstId) {
    const supported = { params: { accountId, connectorId: firstId } };
    const answer = await client.call("listSupportedConnectors", {
      ...supported,
      rawQuery: small("listSupportedConnectors"),
    });
    const f = record(answer, true);
    await pagingOf(client, f, supported);
  }
  if (addedIds[0]) {
    record(await client.call("getConfiguration", { params: { accountId, connectorId: addedIds[0] } }));
  }
  if (catalogue.status < 300) await pagingOf(client, catalogue, account);
  if (added.status < 300) await pagingOf(client, added, account);

  // Where an error's status is: Get Connector of an id that exists nowhere must be a 404.
  const unknown = await client.call("getConnector", { params: { accountId, connectorId: UNKNOWN_ID } });
  if (effectiveStatus(unknown.status, unknown.body) === 404) {
    semantics.errorStatusIn = unknown.status === 404 ? "http" : "body";
  }
  // Get Configuration of a connector not added: readable, or 404.
  const notAdded = (itemsOf(catalogueAnswer.body) ?? []).map(idOf).find((id) => id && !addedIds.includes(id));
  if (notAdded) {
    const answer = await client.call("getConfiguration", { params: { accountId, connectorId: notAdded } });
    const status = effectiveStatus(answer.status, answer.body);
    if (status === 404 || status < 300) semantics.configurationBeforeAdd = status === 404 ? "notFound" : "readable";
  }
  return summary(profile, routes, semantics);
}

async function pagingOf(client: WireClient, f: RouteFinding, request: WireRequest): Promise<void> {
  f.paging = await probePaging(client, f.operation, request);
  const op = client.profile.operations[f.operation];
  if (!pagingReads(op, f.paging)) f.keys.push(`operations.${f.operation}.paging`);
  if (f.paging.undetermined) f.notes.push(`paging: ${f.paging.undetermined}`);
  else if (f.paging.honoured.length === 0) {
    f.notes.push(`paging: none of ${CANDIDATES.map((c) => c.label).join(", ")} is honoured`);
  }
}

function idOf(item: unknown): string | undefined {
  const id = (item as { connectorId?: unknown } | undefined)?.connectorId;
  return typeof id === "string" ? id : undefined;
}

function summary(profile: ResolvedProfile, routes: RouteFinding[], semantics: DoctorReport["semantics"]): DoctorReport {
  const keys = [...new Set(routes.flatMap((r) => r.keys))];
  for (const [key, value] of Object.entries(semantics)) {
    if (JSON.stringify(value) !== JSON.stringify(profile.semantics[key as keyof typeof semantics])) {
      keys.push(`semantics.${key}`);
    }
  }
  const failed = routes.some((r) => r.status >= 300 && !(r.operation === "getConfiguration" && r.status === 404));
  return { profile, routes, semantics, keys, ok: keys.length === 0 && !failed };
}
