// `doctor --write-check --account-id <scratch>`: the only mode that writes. It reads the
// sub-account's added list whole (whole-list.ts: proven complete, or it refuses and writes
// nothing), adds one catalogue connector that this complete list lacks, reads it back, probes the
// added list's paging while the connector is there, adds it again (does Add report
// `alreadyAdded`?), configures it twice (does Configure keep a field it leaves out?
// configure-probe.ts), removes it, reads again and removes again (404 after Remove?). It removes only
// what it added: never a connector the list held before, nor one whose Add answered
// `alreadyAdded`, nor one it did not see absent from a complete list and then present in one
// (a silent Add of a connector the list hid is left alone). When an Add's outcome is unknown (no answer, a 5xx) it reads the list back and
// removes the connector only if it is there now and was not before; what it leaves, it names by id.
import type { PagingStyle, ResolvedProfile } from "../../contract/profile";
import type { OperationName } from "../../contract/routes";
import { probeConfigureWrites, type ConfigureProbe } from "./configure-probe";
import { probePaging, type PagingFinding } from "./paging";
import { effectiveStatus, itemsOf, payloadOf, shapeOf, type ListSpec } from "./shapes";
import { readWholeList, type WholeList } from "./whole-list";
import type { WireAnswer, WireClient } from "./wire-client";

export interface WriteCheck {
  connectorId?: string;
  lines: string[];
  semantics: Partial<ResolvedProfile["semantics"]>;
  success: Partial<Record<OperationName, "view" | "empty">>;
  keys: string[];
  ok: boolean;
  /** The added list's paging, probed while the connector was added. */
  paging?: PagingFinding;
}

const idsOf = (body: unknown, spec: ListSpec) =>
  (itemsOf(body, spec) ?? [])
    .map((i) => (i as { connectorId?: unknown } | null)?.connectorId)
    .filter((id): id is string => typeof id === "string");

/** An answer, or the reason there was none (the outcome of a write is then unknown). */
async function attempt(send: () => Promise<WireAnswer>): Promise<WireAnswer | { lost: string }> {
  try {
    return await send();
  } catch (error) {
    return { lost: (error as Error).message };
  }
}

/** `pagingOf`: the paging doctor settled on for a list (else the profile's). */
export async function writeCheck(
  client: WireClient,
  accountId: string,
  pagingOf: (list: "listConnectors" | "listAddedConnectors") => PagingStyle,
): Promise<WriteCheck> {
  const profile = client.profile;
  const check: WriteCheck = { lines: [], semantics: {}, success: {}, keys: [], ok: true };
  const say = (line: string) => check.lines.push(line);
  const fail = (line: string) => {
    say(line);
    check.ok = false;
    return check;
  };
  const account = { params: { accountId } };
  const listAll = () => readWholeList(client, "listAddedConnectors", account, pagingOf("listAddedConnectors"));

  const before = await listAll();
  if (before.refused !== undefined) {
    return fail(`refused: the added list could not be read whole (${before.refused}); nothing was added`);
  }
  say(`the added list, read whole: ${before.ids.length} connector(s)`);
  // The whole catalogue when it can be read so; else its first page.
  const catalogue = await readWholeList(client, "listConnectors", account, pagingOf("listConnectors"));
  const offered =
    catalogue.refused === undefined
      ? catalogue.ids
      : idsOf((await client.call("listConnectors", account)).body, profile.operations.listConnectors.list);
  const candidate = offered.find((id) => !before.ids.includes(id));
  if (!candidate) return fail("no catalogue connector is free to add to this sub-account");
  check.connectorId = candidate;
  const ids = { connectorIds: [candidate] };
  const remove = () => attempt(() => client.call("removeConnector", { params: { accountId, connectorId: candidate } }));

  const settle = () => settleUnknownWrite(listAll, remove, candidate, accountId);

  const add = await attempt(() => client.call("addConnectors", { ...account, body: ids }));
  if ("lost" in add || effectiveStatus(add.status, add.body) >= 500) {
    const why = "lost" in add ? `no answer: ${add.lost}` : `status ${effectiveStatus(add.status, add.body)}`;
    return fail(`Add (${candidate}): outcome unknown (${why}); ${await settle()}`);
  }
  const addStatus = effectiveStatus(add.status, add.body);
  say(`Add: status ${addStatus}, answer ${shapeOf(add.body)}`);
  if (addStatus >= 300) return fail(`Add refused (${addStatus}): nothing was added`);
  const addPayload = payloadOf(add.body) as { added?: unknown; alreadyAdded?: unknown } | undefined;
  if (Array.isArray(addPayload?.alreadyAdded) && addPayload.alreadyAdded.includes(candidate)) {
    return fail(
      `Add answered alreadyAdded for ${candidate}, which the complete list lacked: doctor removes nothing; ` +
        "the added list may not be whole under this paging",
    );
  }
  // Removed only once seen absent from the complete list (before) and then present in one (back).
  let seenAdded = false;
  try {
    check.success.addConnectors =
      addPayload && typeof addPayload === "object" && "added" in addPayload ? "view" : "empty";
    const back = await listAll();
    const listed = back.refused === undefined && back.ids.includes(candidate);
    say(`read back: ${back.refused ?? (listed ? "listed as added" : "NOT listed as added")}`);
    seenAdded = listed;
    if (!listed) check.ok = false;
    check.paging = await probePaging(client, "listAddedConnectors", account);
    const again = await attempt(() => client.call("addConnectors", { ...account, body: ids }));
    if ("lost" in again) say(`Add again: no answer (${again.lost})`);
    else {
      const againPayload = payloadOf(again.body) as { alreadyAdded?: unknown } | undefined;
      const reports = Array.isArray(againPayload?.alreadyAdded) && againPayload.alreadyAdded.includes(candidate);
      check.semantics.addReportsAlreadyAdded = reports;
      say(
        `Add again: status ${effectiveStatus(again.status, again.body)}, alreadyAdded ${reports ? "reported" : "not reported"}`,
      );
    }
    if (listed) {
      const probe = await probeConfigureWrites(client, accountId, candidate).catch((error: Error): ConfigureProbe => ({
        line: `configureWrites: not told (${error.message})`,
      }));
      say(probe.line);
      if (probe.configureWrites) check.semantics.configureWrites = probe.configureWrites;
    }
  } finally {
    if (!seenAdded) {
      fail(
        `left connector ${candidate} in sub-account ${accountId}: doctor did not see it added, so removes nothing; ` +
          "check the sub-account and remove it by hand if it was not there before",
      );
    } else {
      const removed = await remove();
      if ("lost" in removed) fail(`Remove: no answer (${removed.lost}); ${await settle()}`);
      else {
        const removeStatus = effectiveStatus(removed.status, removed.body);
        say(`Remove: status ${removeStatus}, answer ${shapeOf(removed.body)}`);
        if (removeStatus >= 300) fail(`left connector ${candidate} in sub-account ${accountId}: remove it by hand`);
        const payload = payloadOf(removed.body);
        check.success.removeConnector =
          payload !== undefined && payload !== null && typeof payload === "object" ? "view" : "empty";
      }
    }
  }
  if (!seenAdded) return check;
  const after = await listAll();
  const gone = after.refused === undefined && !after.ids.includes(candidate);
  say(`read again: ${after.refused ?? (gone ? "no longer listed" : "STILL listed")}`);
  if (!gone) check.ok = false;
  const second = await remove();
  if (!("lost" in second)) {
    const secondStatus = effectiveStatus(second.status, second.body);
    say(`Remove again: status ${secondStatus}${secondStatus === 404 ? " (404 after Remove)" : ""}`);
  }

  for (const [op, value] of Object.entries(check.success) as [OperationName, "view" | "empty"][]) {
    if (profile.operations[op].success === "view" && value === "empty") check.keys.push(`operations.${op}.success`);
  }
  for (const [key, value] of Object.entries(check.semantics)) {
    if (value !== profile.semantics[key as keyof typeof check.semantics]) check.keys.push(`semantics.${key}`);
  }
  return check;
}

/** After a write whose outcome is unknown: read back, remove the candidate only if it is there now, say what is left. */
async function settleUnknownWrite(
  listAll: () => Promise<WholeList>,
  remove: () => Promise<WireAnswer | { lost: string }>,
  candidate: string,
  accountId: string,
): Promise<string> {
  const back = await listAll().catch((error: Error): WholeList => ({ refused: error.message }));
  if (back.refused !== undefined) {
    return `the added list could not be read back (${back.refused}): connector ${candidate} may be left in sub-account ${accountId}; check and remove it by hand`;
  }
  if (!back.ids.includes(candidate)) return `read back: connector ${candidate} is not added; nothing is left`;
  const removed = await remove();
  const status = "lost" in removed ? undefined : effectiveStatus(removed.status, removed.body);
  return status !== undefined && status < 300
    ? `read back: connector ${candidate} was added; doctor removed it`
    : `read back: connector ${candidate} was added and Remove failed (${status ?? "no answer"}): it is left in sub-account ${accountId}; remove it by hand`;
}
