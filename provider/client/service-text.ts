// What of the service's own text (statusMessage, errors[]) may reach an error message. Two
// regimes (issue 31, item 6):
// - a request that carried no secret value: the text, scrubbed of credentials and of the
//   values sent (redaction.ts: by exact match);
// - a request that carried secret values (Configure, the token request): none of it. Scrubbing
//   by exact match misses a value quoted back JSON-escaped, trimmed, truncated, upper-cased,
//   URL-encoded or Unicode-normalised, and no list of such forms is ever complete. The error
//   keeps the status, the request id and the names of the refused fields, and only names the
//   request itself sent as keys (a "field" that is not one of them may be a quoted value).
import { STATUS_CODES } from "node:http";

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

/** What errorFromResponse needs to know of the request an answer is about. */
export interface SentRequest {
  /** The request carried secret values: the service's free text is left out entirely. */
  carriedSecrets?: boolean;
  /** The key paths of its body (sentKeysOf): the field names an error may show. */
  sentKeys?: readonly string[];
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

function fieldErrorsOf(body: Record<string, unknown>, clean: (text: string) => string): FieldError[] {
  const list = body.errors;
  if (!Array.isArray(list)) return [];
  return list.filter(isRecord).map((entry) => ({
    field: typeof entry.field === "string" ? clean(entry.field) : "",
    message: typeof entry.message === "string" ? clean(entry.message) : "invalid",
  }));
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
  sent: SentRequest = {},
): ServiceText {
  const generic = STATUS_CODES[status] ?? "unexpected status";
  if (sent.carriedSecrets) {
    const list = Array.isArray(body.errors) ? body.errors.filter(isRecord) : [];
    return {
      statusMessage: generic,
      fieldErrors: list.map((entry) => ({
        field: sentFieldName(entry.field, sent.sentKeys ?? []),
        message: FIELD_REFUSED,
      })),
      withheld: "the service's text is left out (the request carried secret values)",
    };
  }
  try {
    const given = body.statusMessage;
    const statusMessage = typeof given === "string" && given.trim() !== "" ? scrub(given) : generic;
    return { statusMessage, fieldErrors: fieldErrorsOf(body, scrub) };
  } catch {
    return {
      statusMessage: generic,
      fieldErrors: [],
      withheld: "the service's message is left out (it could not be cleared of the values sent)",
    };
  }
}
