// A careless service's refusal: its text quotes the values it was sent, in forms an
// exact-match scrubber cannot find. The fault mode `quoteBack` (faults.ts) answers with it, and
// the tests that look for leaks build their telltales from the same forms.
import type { Strict } from "../contract/views";

/** The forms a value is quoted back in; none is the value as sent (for a mixed-case value with a quote in it). */
export const QUOTED_FORMS: Readonly<Record<string, (value: string) => string>> = {
  "upper-cased": (v) => v.toUpperCase(),
  "lower-cased": (v) => v.toLowerCase(),
  truncated: (v) => `${v.slice(0, Math.max(20, Math.floor((v.length * 3) / 4)))}…`,
  base64: (v) => Buffer.from(v, "utf8").toString("base64"),
  "URL-encoded": (v) => encodeURIComponent(v),
  "JSON-escaped": (v) => JSON.stringify(v).slice(1, -1),
};

/** Longer values are quoted by their first characters (a 60 KB Text makes no 360 KB message). */
const QUOTED_LENGTH = 64;

/** Every string of a request body with its key path ("secretConfig.apiKey"), as the service would echo them. */
function stringsOf(body: unknown, path = ""): [string, string][] {
  if (typeof body === "string") return body.length >= 4 ? [[path, body]] : [];
  if (Array.isArray(body)) return body.flatMap((item, i) => stringsOf(item, `${path}[${i}]`));
  if (body !== null && typeof body === "object") {
    return Object.entries(body).flatMap(([key, value]) => stringsOf(value, path === "" ? key : `${path}.${key}`));
  }
  return [];
}

/** Each form of one value. */
export function formsOf(value: string): string[] {
  return Object.values(QUOTED_FORMS).map((form) => form(value.slice(0, QUOTED_LENGTH)));
}

/**
 * The refusal: a message quoting every value of `body` in every form, a field error per value
 * (named by its key path, its message quoting it), and "fields" named by the quoted values.
 */
export function quoteBackRefusal(body: unknown): { message: string; errors: Strict<"FieldError">[] } {
  const sent = stringsOf(body);
  const quoted = sent.flatMap(([, value]) => formsOf(value));
  return {
    message: `refused: ${quoted.join(" | ") || "nothing to quote"}`,
    errors: [
      ...sent.map(([path, value]) => ({ field: path, message: `${formsOf(value).join(", ")} is not accepted` })),
      ...quoted.map((q) => ({ field: q, message: "unknown field" })),
    ],
  };
}
