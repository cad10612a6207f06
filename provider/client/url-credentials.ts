// The one credential rule for URLs and for the text that quotes them (an engine's error, a
// store's reason, a backend's URL in a report or an identity): what a URL's userinfo holds and
// what a credential parameter of its query holds never reach a message. Every place that shows
// such text calls this module; none re-decides where a password ends.
//
// Where a password ends cannot be told from the text: `postgres://user:p@ss@host/db` holds a
// password with an `@`, and the engine quotes it whole when it cannot open it. So the userinfo is
// taken to run up to the LAST `@` of the URL (Go's url.Parse takes the last `@` of the authority;
// this rule takes the last of the URL, up to the next URL or the end of the word, so that a
// password holding `/`, `?` or `#` is hidden too). A path or query holding an `@` loses that part
// in a message: a host shown less, never a password shown. The separator and the `@` are found
// in any form text carries them: plain, JSON-escaped once or more (`:\/\/`, `\u0026`) and
// percent-encoded once or more (`%3A%2F%2F`, `%40`, `%2540`); a parameter's quoted value
// (`password='a b'`) and a Go driver's DSN without a scheme (`user:pw@tcp(host)/db`) too. A password holding whitespace or a quote ends the word early:
// callers that know the URL (the backend's) pass it, and its userinfo is then hidden wherever it
// occurs, in every form.

const MARK = "[redacted]";

/** `scheme://` as text may carry it; group 1 the scheme. */
const SEPARATOR = /([a-z][a-z0-9+.-]*)(?::|%(?:25)*3a)(?:\\*\/|%(?:25)*2f){2}/gi;
/** `@`, percent-encoded or not. */
const AT = /@|%(?:25)*40/gi;
/** What ends a URL in running text. */
const WORD_END = /[\s"'`]/;
/**
 * A query's (or a connection string's) credential parameter, `name=value`: group 1 what starts
 * it, group 2 its name and the `=`, group 3 the value. `?password=`, `&sig=` (an Azure SAS),
 * `X-Amz-Signature=`, `X-Amz-Security-Token=`, `access_token=`, `api_key=`, `sslpassword=`, `secretKey=`,
 * `pass=`, … (a name holding one of these words anywhere: hiding more is never a leak)
 */
const CREDENTIAL_PARAM =
  /(^|[?&;\s]|%(?:25)*(?:3f|26|3b)|\\+u00(?:26|3f|3b))([a-z0-9_.-]*?(?:pass|pwd|secret|token|sig|credential|apikey|api_key|access_key|accesskey|account_key|accountkey|private_key|sas)[a-z0-9_.-]*?(?:=|%(?:25)*3d|\\+u003d))('[^']*'|"[^"]*"|(?:(?!%(?:25)*26|\\+u0026)[^&\s"'#])*)/gi;
/**
 * A Go driver's DSN, which has no scheme (`user:password@tcp(host:3306)/db`): group 1 what
 * precedes the password, group 2 the password.
 */
const SCHEMELESS_DSN = /(^|[\s"'`(=,])([^\s"'`@:/]+:)([^\s"'`]+)@(?:tcp|tcp6|udp|unix|unixgram)\(/gi;

/** Literal copies shorter than this are not hidden on their own (they would shred a message). */
const SHORTEST_LITERAL = 4;

interface Span {
  start: number;
  end: number;
}

/**
 * What precedes a URL nested in another's query (`?endpoint=http://…`, `next=https%3A%2F%2F…`): a
 * `scheme://` inside a URL's word that follows anything else is its userinfo's (`u:a://b@host`).
 */
const NESTED_URL_AFTER = /(?:[=&;,(]|%(?:25)*(?:3d|26|3b|2c))$/i;

/** Where the word that starts at `from` ends. */
function wordEnd(text: string, from: number): number {
  const at = text.slice(from).search(WORD_END);
  return at === -1 ? text.length : from + at;
}

/** The userinfo spans of every URL in `text`: from after `://` to the URL's last `@`. */
function userinfoSpans(text: string): Span[] {
  const urls: { start: number; end: number }[] = [];
  for (const sep of text.matchAll(SEPARATOR)) {
    const start = sep.index + sep[0].length;
    const current = urls[urls.length - 1];
    const inside = current !== undefined && sep.index < current.end;
    if (inside && !NESTED_URL_AFTER.test(text.slice(Math.max(0, sep.index - 8), sep.index))) continue;
    if (inside) current.end = sep.index; // the outer URL's userinfo ends before the nested one
    urls.push({ start, end: wordEnd(text, start) });
  }
  const spans: Span[] = [];
  for (const { start, end } of urls) {
    const ats = [...text.slice(start, end).matchAll(AT)];
    if (ats.length > 0) spans.push({ start, end: start + ats[ats.length - 1].index });
  }
  return spans;
}

/** The credential parameters' value spans, and a schemeless DSN's password. */
function parameterSpans(text: string): Span[] {
  return [...text.matchAll(CREDENTIAL_PARAM), ...text.matchAll(SCHEMELESS_DSN)]
    .filter((m) => m[3].length > 0)
    .map((m) => {
      const start = m.index + m[1].length + m[2].length;
      return { start, end: start + m[3].length };
    });
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A known URL's credentials as literals: its userinfo (to the last `@` of the whole URL, whatever
 * the password holds), its password, its credential parameters, in the forms text quotes them.
 */
function literalsOf(url: string): string[] {
  const sep = new RegExp(SEPARATOR.source, "i").exec(url);
  const pieces = parameterSpans(url).map(({ start, end }) => url.slice(start, end));
  if (sep) {
    const rest = url.slice(sep.index + sep[0].length);
    const ats = [...rest.matchAll(AT)];
    const userinfo = ats.length > 0 ? rest.slice(0, ats[ats.length - 1].index) : "";
    const colon = userinfo.indexOf(":");
    pieces.push(userinfo, ...(colon === -1 ? [] : [userinfo.slice(colon + 1)]));
  }
  const forms = pieces.flatMap((p) => [p, decoded(p), encodeURIComponent(decoded(p)), JSON.stringify(p).slice(1, -1)]);
  return [...new Set(forms)].filter((f) => f.length >= SHORTEST_LITERAL);
}

function literalSpans(text: string, known: readonly (string | undefined)[]): Span[] {
  const spans: Span[] = [];
  const lower = text.toLowerCase();
  for (const url of known) {
    if (!url) continue;
    for (const literal of literalsOf(url)) {
      const needle = literal.toLowerCase();
      for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
        spans.push({ start: at, end: at + needle.length });
      }
    }
  }
  return spans;
}

/** The text with every span replaced by `mark`, overlapping spans merged. */
function replaceSpans(text: string, spans: Span[], mark: string): string {
  if (spans.length === 0) return text;
  const hidden = new Uint8Array(text.length + 1);
  for (const { start, end } of spans) hidden.fill(1, start, end);
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (!hidden[i]) out += text[i];
    else if (i === 0 || !hidden[i - 1]) out += mark;
  }
  return out;
}

/**
 * `text` (an engine's error, any message) with every URL's userinfo and every credential
 * parameter's value replaced by `[redacted]`; and, of the `known` URLs (the backend's), their
 * userinfo and password wherever they occur, in any case, decoded or percent-encoded.
 */
export function scrubCredentials(text: string, known: readonly (string | undefined)[] = []): string {
  return replaceSpans(text, [...userinfoSpans(text), ...parameterSpans(text), ...literalSpans(text, known)], MARK);
}

/** An `@` at the start, percent-encoded or not. */
const AT_HERE = /^(?:@|%(?:25)*40)/i;

/**
 * One URL without its credentials, for an identity or a message: its userinfo dropped with its
 * `@` (`postgres://host/db`), a credential parameter's value replaced by `[redacted]`.
 */
export function withoutCredentials(url: string): string {
  let out = "";
  let from = 0;
  for (const span of userinfoSpans(url)) {
    out += url.slice(from, span.start);
    from = span.end + (AT_HERE.exec(url.slice(span.end))?.[0].length ?? 0);
  }
  return scrubCredentials(out + url.slice(from));
}
