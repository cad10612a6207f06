// `fleet issues --report <drift.json>…`: tells the team where it works. From `fleet drift`'s
// JSON reports (one per shard), through the GitHub REST API: one open issue per drifted stack
// (labelled, found again by a marker naming its stack), a comment when the stack's drift changes
// (resources, steps or fields), and a comment and the issue closed once the stack is clean. A
// stack not in the reports (another shard's) or failed (its drift unknown) is left as it is.
// The token is GITHUB_TOKEN, the API GITHUB_API_URL (GitHub Enterprise, or a test's loopback
// stand-in), the repository GITHUB_REPOSITORY. An issue holds names only, as the report does:
// stacks, resource types and names, field names, the repair command; never a value, and every
// text passes the fleet's credential rule (shown-text.ts).
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import type { FleetReport, StackReport } from "./report";
import { listedInFull } from "./drift/history";
import { shownText } from "./shown-text";

export interface IssuesOptions {
  reports: FleetReport[];
  repo: string;
  token: string;
  apiUrl: string;
  label: string;
  /** A link to the run, for the issue's text. */
  runUrl?: string;
}

interface Issue {
  number: number;
  body?: string | null;
  pull_request?: unknown;
}

const STACK_MARK = /<!-- fleet-drift-stack: ([A-Za-z0-9_.-]+) -->/;
const PRINT_MARK = /<!-- fleet-drift-fingerprint: ([0-9a-f]+) -->/;

/** What a stack's drift is, by names only: a change of resource, step or field is a new one. */
export function fingerprint(s: StackReport): string {
  const names = [
    ...s.resources.map((r) => [r.type, r.name, r.operation, [...r.properties].sort()]),
    ...unmanagedOf(s).map((u) => ["unmanaged", u.accountId, u.connectorId]),
  ];
  return createHash("sha256").update(JSON.stringify(names.sort())).digest("hex").slice(0, 16);
}

/** Connectors of the stack's sub-account that no stack manages and no entry accepts. */
function unmanagedOf(s: StackReport): NonNullable<StackReport["unmanaged"]> {
  return (s.unmanaged ?? []).filter((u) => !u.acknowledged);
}

/** Drift a team must act on (a drifted field, an unmanaged connector), and what settles it (clean, or all acknowledged). */
const drifting = (s: StackReport) => s.status === "drifted" || s.status === "unmanaged";
const settled = (s: StackReport) => s.status === "clean" || s.status === "acknowledged";

/** An issue's row of an unmanaged connector (driftText's). */
const UNMANAGED_ROW = /\| unmanaged \| \(no stack declares it\) \|/;

const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** The drift as a Markdown table and the repair, names only. */
function driftText(s: StackReport, runUrl?: string): string {
  const rows = s.resources.map(
    (r) => `| ${code(r.type)} | ${code(r.name)} | ${r.operation} | ${r.properties.map(code).join(", ")} |`,
  );
  return shownText(
    [
      `The nightly \`fleet drift\` found stack ${code(s.stack)} drifted${runUrl ? ` ([run](${runUrl}))` : ""}:`,
      "",
      "| type | resource | change | fields |",
      "|---|---|---|---|",
      ...rows,
      ...unmanagedOf(s).map(
        (u) => `| connector | ${code(u.name)} (${code(u.connectorId)}) | unmanaged | (no stack declares it) |`,
      ),
      "",
      ...(s.repair
        ? ["To put it back (or merge a change to its stack file that accepts it):", "", "```sh", s.repair, "```"]
        : []),
    ].join("\n"),
  );
}

function bodyOf(s: StackReport, runUrl?: string): string {
  return `<!-- fleet-drift-stack: ${s.stack} -->\n<!-- fleet-drift-fingerprint: ${fingerprint(s)} -->\n${driftText(s, runUrl)}\n`;
}

class GitHub {
  constructor(private readonly o: IssuesOptions) {}

  async call<T>(method: string, route: string, body?: object): Promise<T> {
    const res = await fetch(`${this.o.apiUrl.replace(/\/+$/, "")}/repos/${this.o.repo}${route}`, {
      method,
      headers: {
        accept: "application/vnd.github+json",
        authorization: `Bearer ${this.o.token}`,
        "x-github-api-version": "2022-11-28",
        ...(body ? { "content-type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (!res.ok) {
      const said = shownText(text.slice(0, 300)).split(this.o.token).join("[redacted]");
      throw new Error(
        `GitHub ${method} /repos/${this.o.repo}${route.split("?")[0]} answered ${res.status}: ${said} ` +
          `(check GITHUB_TOKEN's issues: write permission; request id ${res.headers.get("x-github-request-id") ?? "not given"})`,
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The open issues of the label, every page (pull requests left out). */
  async openIssues(): Promise<Issue[]> {
    const found: Issue[] = [];
    for (let page = 1; ; page++) {
      const label = encodeURIComponent(this.o.label);
      const batch = await this.call<Issue[]>("GET", `/issues?labels=${label}&state=open&per_page=100&page=${page}`);
      found.push(...batch.filter((i) => !i.pull_request));
      if (batch.length < 100) return found;
    }
  }
}

/** What it did, a line per stack acted on. */
export async function syncIssues(o: IssuesOptions): Promise<string[]> {
  const gh = new GitHub(o);
  const byStack = new Map<string, Issue>();
  for (const issue of await gh.openIssues()) {
    const stack = STACK_MARK.exec(issue.body ?? "")?.[1];
    if (stack && !byStack.has(stack)) byStack.set(stack, issue);
  }
  const done: string[] = [];
  const stacks = o.reports.flatMap((r) => (r.command === "drift" ? r.stacks : []));
  for (const s of stacks.sort((a, b) => a.stack.localeCompare(b.stack))) {
    const issue = byStack.get(s.stack);
    if (drifting(s) && !issue) {
      const made = await gh.call<Issue>("POST", "/issues", {
        title: `Drift: stack ${s.stack}`,
        body: bodyOf(s, o.runUrl),
        labels: [o.label],
      });
      byStack.set(s.stack, made); // the same stack in another report (a shard run again) comments, not opens
      done.push(`${s.stack}: ${s.status}, opened #${made.number}`);
    } else if (drifting(s) && issue) {
      if (PRINT_MARK.exec(issue.body ?? "")?.[1] === fingerprint(s)) continue; // the same drift: nothing new to say
      await gh.call("POST", `/issues/${issue.number}/comments`, {
        body: `The drift changed.\n\n${driftText(s, o.runUrl)}\n`,
      });
      await gh.call("PATCH", `/issues/${issue.number}`, { body: bodyOf(s, o.runUrl) });
      done.push(`${s.stack}: drift changed, commented on #${issue.number}`);
    } else if (settled(s) && issue && !listedInFull(s) && UNMANAGED_ROW.test(issue.body ?? "")) {
      // The issue names connectors no stack declares, and this run did not list the sub-account in full.
      const why = s.discoveryNotRun ?? "discovery was off (--no-discovery)";
      done.push(`${s.stack}: ${s.status}, #${issue.number} left open (its sub-account not listed: ${why})`);
    } else if (settled(s) && issue) {
      const when = o.runUrl ? ` ([run](${o.runUrl}))` : "";
      await gh.call("POST", `/issues/${issue.number}/comments`, {
        body: `Resolved: the nightly \`fleet drift\` found stack ${code(s.stack)} ${s.status === "clean" ? "clean" : "with only acknowledged drift"}${when}.\n`,
      });
      await gh.call("PATCH", `/issues/${issue.number}`, { state: "closed", state_reason: "completed" });
      done.push(`${s.stack}: ${s.status}, closed #${issue.number}`);
    }
  }
  return done;
}

/** Reads the reports `fleet drift --json` wrote. */
export async function readReports(files: string[]): Promise<FleetReport[]> {
  return Promise.all(
    files.map(async (file) => {
      const report = JSON.parse(await fs.readFile(file, "utf8")) as FleetReport;
      if (report?.schemaVersion !== 1 || !Array.isArray(report.stacks))
        throw new Error(`${file} is not a fleet report (fleet drift --json <file>)`);
      return report;
    }),
  );
}
