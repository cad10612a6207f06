// What of the service's own text (statusMessage, errors[]) may reach an error message. Two
// regimes, decided ONCE per call (SentRequest) and applied
// to every error built for that call, whatever form the refusal takes (an HTTP status, a status
// inside a 2xx at any of the profile's envelope paths):
// - a request that carried no secret value: the text, scrubbed of credentials and of the
//   values sent (redaction.ts: by exact match);
// - a request that carried secret values (Configure, the token request): none of it. Scrubbing
//   by exact match misses a value quoted back JSON-escaped, trimmed, truncated, upper-cased,
//   URL-encoded or Unicode-normalised, and no list of such forms is ever complete.
// Either way, a field name the service gives is shown only when it is a key the request sent
// (a "field" that is none of them may be a quoted value).
import { STATUS_CODES } from "node:http";
import { redact, scrubServiceText, sentValuesOf } from "./redaction";

export interface FieldError {
  field: string;
  message: string;
}

export interface ServiceText {
  statusMessage: string;
  fieldErrors: FieldError[];
  /** Why the service's own text is left out, when it is. */
  withheld?: string;
}

/**
 * What every error of one call needs to know of its request: decided once per call (client.ts
 * call(), sentRequestOf) and handed to the one error factory, for every answer of that call.
 * It holds no value: the credentials and the values sent live in `scrub`'s closure only, so the
 * object may travel with an answer (BodyContext) and be printed.
 */
export interface SentRequest {
  /** The request carried secret values: the service's free text is left out entirely. */
  readonly carriedSecrets: boolean;
  /** The key paths of its body and query (and field ids it was told of): the field names an error may show. */
  readonly sentKeys: readonly string[];
  /** The service's text cleared of the credentials and of every value sent (exact match: redaction.ts). */
  readonly scrub: (text: string) => string;
}

/** A request with no body, no query and no credential to hide (tests, a refusal made up by hand). */
export const NOTHING_SENT: SentRequest = { carriedSecrets: false, sentKeys: [], scrub: (text) => text };

export interface RequestParts {
  body?: unknown;
  /** The body holds secret values (a secretConfig, the client secret). */
  secretBody?: boolean;
  /** Keys a refusal may name besides the body's (a query parameter, a required field not sent). */
  otherKeys?: readonly string[];
  /** Credentials never to show (the client secret; hidingAlso adds an attempt's token). */
  secrets: readonly string[];
}

/** The one decision, per call, of what its errors may show. */
export function sentRequestOf(parts: RequestParts): SentRequest {
  const values = sentValuesOf(parts.body);
  return {
    carriedSecrets: parts.secretBody === true,
    sentKeys: [...sentKeysOf(parts.body), ...(parts.otherKeys ?? [])],
    scrub: (text) => scrubServiceText(text, parts.secrets, values),
  };
}

/** The same request, with one more credential to hide (the bearer token of an attempt). */
export function hidingAlso(sent: SentRequest, secret: string | undefined): SentRequest {
  return secret === undefined ? sent : { ...sent, scrub: (text) => sent.scrub(redact(text, [secret])) };
}

/** The names of a request target's query parameters ("/x?size=5&offset=0" → size, offset). */
export function queryKeysOf(target: string): string[] {
  const at = target.indexOf("?");
  return at === -1 ? [] : [...new URLSearchParams(target.slice(at + 1)).keys()];
}

/** The message of a refused field when the service's text is left out. */
export const FIELD_REFUSED = "refused (the service's text is left out)";
/** A field name the service gave that is none of the keys sent. */
export const UNNAMED_FIELD = "(unnamed field)";

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Every key path of a body ("secretConfig", "secretConfig.apiKey"), values excluded. */
export function sentKeysOf(body: unknown, prefix = ""): string[] {
  if (!isRecord(body)) return [];
  return Object.entries(body).flatMap(([key, value]) => {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    return [path, ...sentKeysOf(value, path)];
  });
}

/** The service's field name when it names a key sent (an index like `[2]` allowed after it), else UNNAMED_FIELD. */
export function sentFieldName(field: unknown, sentKeys: readonly string[]): string {
  if (typeof field !== "string") return UNNAMED_FIELD;
  const base = field.replace(/(\[\d{1,6}\])+$/, "");
  return base !== "" && sentKeys.includes(base) ? field : UNNAMED_FIELD;
}

function fieldErrorsOf(
  body: Record<string, unknown>,
  sentKeys: readonly string[],
  message: (entry: Record<string, unknown>) => string,
): FieldError[] {
  const list = Array.isArray(body.errors) ? body.errors.filter(isRecord) : [];
  return list.map((entry) => ({ field: sentFieldName(entry.field, sentKeys), message: message(entry) }));
}

/**
 * What the service said, scrubbed; nothing of it after a request that carried secrets. Should
 * the scrubbing fail, the service's text is dropped (never the failure's message, which might
 * quote what it scrubbed): the status's generic text remains, with the status and request id.
 */
export function serviceTextOf(
  status: number,
  body: Record<string, unknown>,
  scrub: (text: string) => string,
  sent: SentRequest,
): ServiceText {
  const generic = STATUS_CODES[status] ?? "unexpected status";
  if (sent.carriedSecrets) {
    return {
      statusMessage: generic,
      fieldErrors: fieldErrorsOf(body, sent.sentKeys, () => FIELD_REFUSED),
      withheld: "the service's text is left out (the request carried secret values)",
    };
  }
  try {
    const given = body.statusMessage;
    const statusMessage = typeof given === "string" && given.trim() !== "" ? scrub(given) : generic;
    const fieldErrors = fieldErrorsOf(body, sent.sentKeys, (entry) =>
      typeof entry.message === "string" ? scrub(entry.message) : "invalid",
    );
    return { statusMessage, fieldErrors };
  } catch {
    return {
      statusMessage: generic,
      fieldErrors: [],
      withheld: "the service's message is left out (it could not be cleared of the values sent)",
    };
  }
}

/** Why a ResponseFormatError's details are left out after a request that carried secrets. */
export const SHAPE_WITHHELD =
  "its details are left out (the request carried secret values, and an answer's keys may quote them)";
