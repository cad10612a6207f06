// The parts of a request the profile names (docs/service-profile.md): filters, paging and body
// fields under the service's names; and what a success answer that may say nothing does say.
import { z } from "zod";
import type { PagingStyle, ResolvedOperation } from "../../contract/profile";
import { payloadOf } from "./answers";
import { InvalidArgumentError } from "./errors";
import type { QueryValue } from "./routes";
import { loose, parseBody, SUPPORTED_TYPES, type AddedConnectorView, type BodyContext } from "./schemas";
import { checkFilters, checkId } from "./validation";

export interface ConfigureBody {
  configurationId: string;
  name?: string;
  secretName?: string;
  secretConfig: Record<string, string | number | boolean | string[]>;
}

/** The checked filters, by the client's names (the profile renames them on the wire). */
export function filtersOf(filters: unknown): Record<string, QueryValue> {
  const { dataType, dataTypeCategory, platformType, supportedType, name } = checkFilters(filters, SUPPORTED_TYPES);
  return { dataType, dataTypeCategory, platformType, supportedType, name };
}

/** The paging entries of a list request, by the profile's names. */
export function pagingQuery(paging: PagingStyle, page: number, size: number, offset: number): Record<string, number> {
  // `page` counts from 1 here; a service whose pages count from 0 (firstPage: 0) gets one less.
  if (paging.style === "page") return { [paging.page]: page - 1 + (paging.firstPage ?? 1), [paging.pageSize]: size };
  if (paging.style === "offset") return { [paging.offset]: offset, [paging.size]: size };
  return {};
}

/** Configure's body: only the contract's fields, checked, under the profile's names. */
export function configureBodyOf(op: ResolvedOperation, body: ConfigureBody): Record<string, unknown> {
  const configurationId = checkId("configurationId", body.configurationId);
  const { secretConfig, name, secretName } = body;
  if (secretConfig === null || typeof secretConfig !== "object" || Array.isArray(secretConfig)) {
    throw new InvalidArgumentError("secretConfig", "secretConfig must be an object of field id to value");
  }
  for (const [key, value] of [
    ["name", name],
    ["secretName", secretName],
  ] as const) {
    if (value !== undefined && typeof value !== "string")
      throw new InvalidArgumentError(key, `${key} must be a string`);
  }
  const { fields } = op;
  // Only the contract's fields go out, whatever else the caller's object holds.
  return {
    [fields.configurationId]: configurationId,
    ...(name !== undefined ? { [fields.name]: name } : {}),
    ...(secretName !== undefined ? { [fields.secretName]: secretName } : {}),
    [fields.secretConfig]: secretConfig,
  };
}

/**
 * Whether a success answer says nothing of what it did: no body, an empty or non-object
 * payload, or one without any of `keys`. (A body that says something malformed is refused.)
 */
export function isSilent(op: ResolvedOperation, json: unknown, keys: readonly string[]): boolean {
  if (json === undefined || json === null) return true;
  const payload = payloadOf(op, json, { route: "", requestId: "", status: 200 });
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return true;
  return !keys.some((key) => key in payload);
}

const AddAnswer = z.looseObject({
  added: z.array(loose.AddedConnectorView).optional(),
  alreadyAdded: z.array(z.string()).optional(),
});

/** What Add's answer says: the views it added, and the ids already there when it says (else undefined). */
export function addResultOf(
  op: ResolvedOperation,
  json: unknown,
  ctx: BodyContext,
): { added: AddedConnectorView[]; alreadyAdded: string[] | undefined } {
  if (isSilent(op, json, ["added", "alreadyAdded"])) return { added: [], alreadyAdded: undefined };
  const at = op.envelope.mode !== "absent" && json !== null && typeof json === "object" && op.envelope.payload in json;
  const said = parseBody(AddAnswer, payloadOf(op, json, ctx), ctx, at ? [op.envelope.payload] : []);
  return { added: said.added ?? [], alreadyAdded: said.alreadyAdded };
}
