// A loopback stand-in of the GitHub REST endpoints `fleet issues` calls (list issues by label and
// state, paged; create; comment; update and close), for its tests (cli/fleet/issues.test.ts, the
// workflow's step in test/integration/cli/fleet/workflow.test.ts). Every request is kept.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** The token the stand-in accepts (repository acme/fleet). */
export const TOKEN = "ghs_canary-token-3f9a";

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  state: "open" | "closed";
  comments: string[];
  pull_request?: object;
}

/** The endpoints of api.github.com the step calls, on loopback; every request kept. */
export async function gitHubStandIn(): Promise<{
  url: string;
  issues: FakeIssue[];
  sent: string[];
  close(): Promise<void>;
}> {
  const issues: FakeIssue[] = [];
  const sent: string[] = [];
  const read = async (req: IncomingMessage) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    return text;
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      sent.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`);
      const reply = (status: number, json: unknown) => {
        res
          .writeHead(status, {
            "content-type": "application/json",
            "x-github-request-id": `CAFE:${status}:${sent.length}`,
          })
          .end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return reply(401, { message: "Bad credentials" });
      const url = new URL(req.url ?? "", "http://x");
      const m = /^\/repos\/acme\/fleet\/issues(?:\/(\d+))?(\/comments)?$/.exec(url.pathname);
      if (!m) return reply(404, { message: "Not Found" });
      const issue = m[1] ? issues.find((i) => i.number === Number(m[1])) : undefined;
      if (req.method === "GET" && !m[1]) {
        const label = url.searchParams.get("labels") ?? "";
        const page = Number(url.searchParams.get("page") ?? 1);
        const per = Number(url.searchParams.get("per_page") ?? 30);
        const open = issues.filter((i) => i.state === url.searchParams.get("state") && i.labels.includes(label));
        return reply(200, open.slice((page - 1) * per, page * per));
      }
      const json = JSON.parse(body || "{}") as Partial<FakeIssue> & { state_reason?: string };
      if (req.method === "POST" && !m[1]) {
        const made = { number: issues.length + 1, comments: [], state: "open" as const, ...json } as FakeIssue;
        issues.push(made);
        return reply(201, made);
      }
      if (!issue) return reply(404, { message: "Not Found" });
      if (req.method === "POST" && m[2]) {
        issue.comments.push(json.body ?? "");
        return reply(201, {});
      }
      if (req.method === "PATCH" && !m[2]) {
        Object.assign(
          issue,
          json.body !== undefined ? { body: json.body } : {},
          json.state ? { state: json.state } : {},
        );
        return reply(200, issue);
      }
      return reply(405, { message: "no such endpoint here" });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, issues, sent, close: () => new Promise((r) => server.close(() => r())) };
}
