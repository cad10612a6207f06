// `fleet drift --notify <url>`: the run's new and resolved events (history.ts) POSTed as JSON,
// with retries and a timeout. Names only, as in the report (stacks, URNs, types, property
// paths, connector ids), never a value or a secret. The URL is never printed whole: a webhook's
// path or query is often its credential, so messages name its origin only.
import type { DriftEvent } from "../report";

export interface NotifyOptions {
  /** Attempts in all (default 3). */
  attempts?: number;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** Before the 2nd attempt; doubled each time (default 1 s). */
  backoffMs?: number;
}

export interface Delivery {
  to: string;
  events: number;
  delivered: boolean;
  attempts: number;
  error?: string;
}

/** The URL as messages may show it: its origin (no path, query, user or password). */
export function shownUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(not a URL)";
  }
}

/** Refuses a URL the run could not post to, before anything is checked. */
export function checkNotifyUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:"))
    throw new Error("--notify takes an http:// or https:// URL (a webhook receiving JSON)");
  if (parsed.username !== "" || parsed.password !== "")
    throw new Error(
      "--notify's URL carries a user name or password, which a request cannot send in the URL: give the " +
        "receiver's URL without them (a webhook's token in its path or query, as the receiver documents)",
    );
}

export interface Notification {
  schemaVersion: 1;
  kind: "fleet-drift-events";
  project: string;
  runAt: string;
  events: DriftEvent[];
}

/** A status worth another attempt: the receiver's own trouble or its limit, not a refusal. */
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

export async function notify(url: string, body: Notification, options: NotifyOptions = {}): Promise<Delivery> {
  const attempts = options.attempts ?? 3;
  const to = shownUrl(url);
  let error = "";
  let wait = options.backoffMs ?? 1000;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const answer = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        redirect: "error",
      });
      await answer.arrayBuffer().catch(() => undefined);
      if (answer.ok) return { to, events: body.events.length, delivered: true, attempts: attempt };
      error = `${to} answered HTTP ${answer.status}`;
      if (!retryable(answer.status))
        return { to, events: body.events.length, delivered: false, attempts: attempt, error };
    } catch (e) {
      const name = (e as Error).name;
      error =
        name === "TimeoutError"
          ? `${to} did not answer within ${(options.timeoutMs ?? 10_000) / 1000} s`
          : `${to} could not be reached (${(e as { cause?: { code?: string } }).cause?.code ?? name})`;
    }
    if (attempt < attempts) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait *= 2;
    }
  }
  return { to, events: body.events.length, delivered: false, attempts, error: `${error} (after ${attempts} attempts)` };
}
