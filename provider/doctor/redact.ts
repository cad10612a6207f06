// The last guard on everything `doctor` prints or writes (stdout, errors, the trace, the written
// profile): the client secret and the bearer token, in any form a service could echo them —
// as sent, upper- or lower-cased, base64 (standard or URL-safe), URL-encoded, JSON-escaped, or a
// truncated piece of ten characters or more — are replaced by `[redacted]`. doctor shows shapes,
// not values, in the first place; this catches the service text it cannot avoid showing (a
// redirect's origin, a key name, a header) and its own mistakes.

/** The shortest piece of a secret taken for a truncated copy of it. */
const WINDOW = 10;
const MARK = "[redacted]";

function formsOf(value: string): string[] {
  const forms = [
    value,
    Buffer.from(value).toString("base64").replace(/=+$/, ""),
    Buffer.from(value).toString("base64url"),
    encodeURIComponent(value),
    JSON.stringify(value).slice(1, -1),
  ];
  // A truncated copy: every piece of WINDOW characters (only for a value long enough to have one).
  if (value.length > WINDOW) {
    for (let i = 0; i + WINDOW <= value.length; i++) forms.push(value.slice(i, i + WINDOW));
  }
  return forms;
}

export class Secrets {
  private readonly needles = new Set<string>();

  constructor(values: readonly (string | undefined)[] = []) {
    for (const value of values) this.add(value);
  }

  /** Adds a value (the token once it is known); values under four characters are not taken. */
  add(value: string | undefined): void {
    if (value === undefined || value.length < 4) return;
    for (const form of formsOf(value)) if (form.length >= 4) this.needles.add(form.toLowerCase());
  }

  /** The text with every form of every secret replaced, case-insensitively. */
  scrub(text: string): string {
    const lower = text.toLowerCase();
    const hidden: boolean[] = [];
    for (const needle of this.needles) {
      for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
        for (let i = at; i < at + needle.length; i++) hidden[i] = true;
      }
    }
    if (hidden.length === 0) return text;
    let out = "";
    for (let i = 0; i < text.length; i++) {
      if (!hidden[i]) out += text[i];
      else if (!hidden[i - 1]) out += MARK;
    }
    return out;
  }
}
