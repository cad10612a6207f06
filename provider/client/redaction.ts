// Scrubbing of the service's text before it reaches a message: credentials (client secret,
// token) and every value the request sent, which a service may quote back. Plain substring
// search only: no pattern is ever built from a value, so a value of any size or content can
// neither make the scrubbing fail nor end up quoted in the failure (a RegExp of a ≥ 32 KB value
// did both: V8's "Regular expression too large" quoted the whole pattern).

const REDACTED = "[redacted]";

/** Replaces every occurrence of the given secrets (client secret, token) by "[redacted]". */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}

// Values of 1-3 characters ("EU", 5) are matched only as whole words, so that scrubbing them
// does not shred the rest of a message; longer ones wherever they occur.
const SHORT_VALUE = 4;

function isWordChar(text: string, at: number): boolean {
  const c = text.charCodeAt(at); // NaN outside the text
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Replaces the values a request sent (every string and number of its body) by "[redacted]",
 * longest first, so that a service that quotes them back cannot put them in a message. Each
 * value marks the spans where it occurs in the original text (so a replacement never creates
 * a match, and a span a longer value took stays taken); each run of marked text then becomes
 * one "[redacted]". Cost: one indexOf scan of the text per value.
 */
export function redactSentValues(text: string, values: readonly string[]): string {
  const unique = [...new Set(values.filter((v) => v.trim() !== ""))].sort((a, b) => b.length - a.length);
  if (unique.length === 0 || text === "") return text;
  const hidden = new Uint8Array(text.length);
  let found = false;
  for (const value of unique) {
    if (value.length > text.length) continue;
    const wholeWord = value.length < SHORT_VALUE;
    let at = text.indexOf(value);
    while (at !== -1) {
      if (wholeWord && (isWordChar(text, at - 1) || isWordChar(text, at + value.length))) {
        at = text.indexOf(value, at + 1);
        continue;
      }
      hidden.fill(1, at, at + value.length);
      found = true;
      at = text.indexOf(value, at + value.length);
    }
  }
  if (!found) return text;
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = start;
    while (end < text.length && hidden[end] === hidden[start]) end++;
    parts.push(hidden[start] === 1 ? REDACTED : text.slice(start, end));
    start = end;
  }
  return parts.join("");
}

/** Every string and number of a request body (keys excluded), for redactSentValues. */
export function sentValuesOf(body: unknown): string[] {
  if (typeof body === "string") {
    // A number given as text ("100.0") may come back as the service's canonical form ("100").
    const n = Number(body);
    return body.trim() !== "" && Number.isFinite(n) && String(n) !== body ? [body, String(n)] : [body];
  }
  if (typeof body === "number") return Number.isFinite(body) ? [String(body)] : [];
  if (Array.isArray(body)) return body.flatMap(sentValuesOf);
  if (body !== null && typeof body === "object") return Object.values(body).flatMap(sentValuesOf);
  return [];
}

/** The service's text as it may appear in a message: credentials and sent values replaced. */
export function scrubServiceText(text: string, secrets: readonly string[], sentValues: readonly string[]): string {
  return redactSentValues(redact(text, secrets), sentValues);
}
