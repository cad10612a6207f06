// The contract's ids and limits (docs/service-contract.md, "Routes"), written once for
// the client, the provider and the service. No zod here: the provider's public declarations
// may reach this file.

/** Connector, platform and configuration ids: 16 alphanumeric characters. */
export const ID_PATTERN = /^[A-Za-z0-9]{16}$/;
/** How messages name the id format ("connectorId must be a 16-character alphanumeric id"). */
export const ID_FORMAT = "a 16-character alphanumeric id";

export function isId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

/** Add Connector takes 1 to 50 distinct ids. */
export const MAX_ADD_IDS = 50;

/** page and pageSize of the list routes: pageSize 1 to 200, 50 when not given. */
export const MIN_PAGE_SIZE = 1;
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 50;

/** The longest name filter, configuration name and secret name the service takes. */
export const MAX_TEXT_LENGTH = 200;
