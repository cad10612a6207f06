// The pending-Configure record of a configuration (runtime/pending-writes.ts): settled once the
// engine holds the resource, or once the write certainly did not happen.
import { currentClient, runtime } from "../runtime/runtime";
import { configurationKey } from "./ownership";

/** The engine holds the resource (or the write certainly did not happen): its pending-Configure record goes. */
export function settleRecord(accountId: unknown, connectorId: unknown): void {
  if (typeof accountId !== "string" || typeof connectorId !== "string") return;
  const state = runtime();
  if (!state.journal) return;
  try {
    state.journal.settle(currentClient().settings.baseUrl, accountId, configurationKey(connectorId));
  } catch {
    // no settings: nothing was recorded under them
  }
}
