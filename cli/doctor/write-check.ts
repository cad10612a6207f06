// `doctor --write-check --account-id <scratch>`: the only mode that writes. It adds one
// catalogue connector that the scratch sub-account does not have, reads it back, adds it again
// (does Add report `alreadyAdded`?), removes it, reads again and removes again (404 after
// Remove?), and says what Add's and Remove's answers hold. It removes what it added even when a
// step in between fails.
import type { OperationName } from "../../contract/routes";
import type { ResolvedProfile } from "../../contract/profile";
import { effectiveStatus, itemsOf, payloadOf, shapeOf } from "./shapes";
import type { WireClient } from "./wire-client";

export interface WriteCheck {
  connectorId?: string;
  lines: string[];
  semantics: Partial<ResolvedProfile["semantics"]>;
  success: Partial<Record<OperationName, "view" | "empty">>;
  keys: string[];
  ok: boolean;
}

const idsOf = (body: unknown) =>
  (itemsOf(body) ?? []).map((i) => (i as { connectorId?: unknown }).connectorId).filter((id) => typeof id === "string");

export async function writeCheck(client: WireClient, accountId: string): Promise<WriteCheck> {
  const profile = client.profile;
  const check: WriteCheck = { lines: [], semantics: {}, success: {}, keys: [], ok: true };
  const say = (line: string) => check.lines.push(line);
  const account = { params: { accountId } };
  const listAll = async () => idsOf((await client.call("listAddedConnectors", { ...account, rawQuery: {} })).body);

  const before = await listAll();
  const catalogue = await client.call("listConnectors", account);
  const candidate = idsOf(catalogue.body).find((id) => !before.includes(id));
  if (!candidate) {
    say("write check: no catalogue connector on the first page is free to add to this sub-account");
    check.ok = false;
    return check;
  }
  check.connectorId = candidate;
  const ids = { connectorIds: [candidate] };
  const add = await client.call("addConnectors", { ...account, body: ids });
  const addStatus = effectiveStatus(add.status, add.body);
  say(`Add: status ${addStatus}, answer ${shapeOf(add.body)}`);
  if (addStatus >= 300) {
    check.ok = false;
    return check;
  }
  try {
    const addPayload = payloadOf(add.body) as { added?: unknown } | undefined;
    check.success.addConnectors =
      addPayload && typeof addPayload === "object" && "added" in addPayload ? "view" : "empty";
    const listed = (await listAll()).includes(candidate);
    say(`read back: ${listed ? "listed as added" : "NOT listed as added"}`);
    if (!listed) check.ok = false;
    const again = await client.call("addConnectors", { ...account, body: ids });
    const againPayload = payloadOf(again.body) as { alreadyAdded?: unknown } | undefined;
    const reports = Array.isArray(againPayload?.alreadyAdded) && againPayload.alreadyAdded.includes(candidate);
    check.semantics.addReportsAlreadyAdded = reports;
    say(
      `Add again: status ${effectiveStatus(again.status, again.body)}, alreadyAdded ${reports ? "reported" : "not reported"}`,
    );
  } finally {
    const remove = await client.call("removeConnector", { params: { accountId, connectorId: candidate } });
    const removeStatus = effectiveStatus(remove.status, remove.body);
    say(`Remove: status ${removeStatus}, answer ${shapeOf(remove.body)}`);
    if (removeStatus >= 300) check.ok = false;
    const payload = payloadOf(remove.body);
    check.success.removeConnector =
      payload !== undefined && payload !== null && typeof payload === "object" ? "view" : "empty";
  }
  const gone = !(await listAll()).includes(candidate);
  say(`read again: ${gone ? "no longer listed" : "STILL listed"}`);
  if (!gone) check.ok = false;
  const second = await client.call("removeConnector", { params: { accountId, connectorId: candidate } });
  const secondStatus = effectiveStatus(second.status, second.body);
  say(`Remove again: status ${secondStatus}${secondStatus === 404 ? " (404 after Remove)" : ""}`);

  for (const [op, value] of Object.entries(check.success) as [OperationName, "view" | "empty"][]) {
    if (profile.operations[op].success === "view" && value === "empty") check.keys.push(`operations.${op}.success`);
  }
  if (check.semantics.addReportsAlreadyAdded !== profile.semantics.addReportsAlreadyAdded) {
    check.keys.push("semantics.addReportsAlreadyAdded");
  }
  return check;
}
