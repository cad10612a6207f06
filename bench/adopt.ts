// `npm run bench:adopt [-- --sub-accounts 200 --connectors 10]` (issue 41, item 4): `fleet adopt`
// of existing sub-accounts whose customers configured them through the service's API (their
// Passwords included), one customer, examples/fleet, the local service in its own process with
// its rate limit off. Measures the adoption's wall time (read, stack files, import, the proof by
// `fleet preview` and `fleet drift`) and every request the service received meanwhile: token
// requests, reads, and writes, which must be 0; every sub-account must come out adopted. Writes
// bench/fleet-adopt.json and bench/sections/fleet-adopt.md, then re-renders BENCHMARKS.md.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs, promisify } from "node:util";
import type { AdoptReport } from "../cli/fleet/adopt";
import { routeKey } from "../contract/routes";
import { disposeEngine, ensureEngine, repoRoot } from "../harness/engine";
import type { LocalService, Stats } from "../harness/local-service";
import { startServiceProcess } from "../harness/service-process";
import { CATALOGUE } from "../service/seed/catalogue";
import { benchConnectors } from "./fleet";
import { writeMeasuredSection } from "./render";

const execFileAsync = promisify(execFile);
const cli = path.join(repoRoot, "dist", "cli", "main.js");

/** The customer's own calls (a client of the public API sharing no code with the provider). */
async function customerCalls(service: LocalService) {
  const { clientId, clientSecret } = service.customers[0];
  const tokenRes = await fetch(`${service.baseUrl}/es/v2/oauth/client-token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ clientId, clientSecret }),
  });
  const tokenBody = (await tokenRes.json()) as { accessToken?: string; response?: { accessToken: string } };
  const token = tokenBody.accessToken ?? tokenBody.response?.accessToken;
  return async <T>(method: string, route: string, accountId: string, body?: object): Promise<T> => {
    const res = await fetch(`${service.baseUrl}${route}?accountId=${accountId}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status !== 200) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { response: T }).response;
  };
}

function requestsBetween(before: Stats, after: Stats) {
  const count = (s: Stats, route: string) => Object.values(s.byRoute[route] ?? {}).reduce((a, b) => a + b, 0);
  const counts = { total: 0, token: 0, reads: 0, writes: 0, writeRoutes: [] as string[] };
  for (const route of Object.keys(after.byRoute)) {
    const n = count(after, route) - count(before, route);
    if (n <= 0) continue;
    counts.total += n;
    if (route === routeKey("getToken")) counts.token += n;
    else if (route.startsWith("GET ")) counts.reads += n;
    else {
      counts.writes += n;
      counts.writeRoutes.push(`${route} × ${n}`);
    }
  }
  return counts;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { "sub-accounts": { type: "string" }, connectors: { type: "string" } } });
  const subAccounts = Number(values["sub-accounts"] ?? 200);
  const perAccount = Number(values.connectors ?? 10);
  const load = os.loadavg()[0].toFixed(1);
  const engine = await ensureEngine();
  const service = await startServiceProcess({ rateLimitPerSecond: 0 });
  const workDir = path.join(
    repoRoot,
    "test",
    "e2e",
    "programs",
    ".work",
    `bench-adopt-${randomBytes(4).toString("hex")}`,
  );
  try {
    await fs.cp(path.join(repoRoot, "examples", "fleet"), workDir, { recursive: true });
    for (const f of await fs.readdir(workDir)) if (/^Pulumi\..+\.yaml$/.test(f)) await fs.rm(path.join(workDir, f));
    const admin = await fetch(`${service.baseUrl}/_admin/sub-accounts`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-admin-key": service.adminKey },
      body: JSON.stringify({ clientId: service.customers[0].clientId, count: subAccounts }),
    });
    const ids = ((await admin.json()) as { response: { subAccountIds: string[] } }).response.subAccountIds.slice(
      0,
      subAccounts,
    );
    // The customer configures each sub-account, its own Passwords included.
    const call = await customerCalls(service);
    const specs = Object.values(benchConnectors(perAccount));
    const idOf = (name: string) => CATALOGUE.find((c) => c.name === name)!.connectorId;
    const passwords: string[] = [];
    await Promise.all(
      ids.map(async (accountId, a) => {
        await call("POST", "/es/v2/connectors", accountId, { connectorIds: specs.map((s) => idOf(s.name)) });
        for (const spec of specs) {
          const connectorId = idOf(spec.name);
          const current = await call<{ secretConfig: { configurationId: string }[] }>(
            "GET",
            `/es/v2/connectors/${connectorId}/configuration`,
            accountId,
          );
          const secret = `customer-${a}-${randomBytes(6).toString("hex")}`;
          passwords.push(secret);
          const secretConfig = {
            ...spec.values,
            ...Object.fromEntries(Object.keys(spec.secrets ?? {}).map((f) => [f, secret])),
          };
          await call("PUT", `/es/v2/connectors/${connectorId}/configuration`, accountId, {
            configurationId: current.secretConfig[0].configurationId,
            secretConfig,
          });
        }
      }),
    );
    await fs.writeFile(
      path.join(workDir, "accounts.csv"),
      ids.map((id, i) => `${id},acme,adopt-${String(i + 1).padStart(3, "0")}`).join("\n"),
    );
    const env = {
      ...process.env,
      ...engine.env,
      CI: "true",
      EMBEDDED_BASE_URL: service.baseUrl,
      ACME_CLIENT_SECRET: service.customers[0].clientSecret,
    };
    const before = await service.stats();
    const started = performance.now();
    const run = await execFileAsync(
      process.execPath,
      [cli, "fleet", "adopt", "--accounts", "accounts.csv", "--json", "adopt.json"],
      { cwd: workDir, env, maxBuffer: 256 * 1024 * 1024 },
    ).catch((e: { stdout: string; stderr: string }) => e);
    const wallMs = Math.round(performance.now() - started);
    const requests = requestsBetween(before, await service.stats());
    const reports = (
      JSON.parse(await fs.readFile(path.join(workDir, "adopt.json"), "utf8")) as { stacks: AdoptReport[] }
    ).stacks;
    const adopted = reports.filter(
      (r) => r.status === "adopted" && r.preview === "clean" && r.drift === "clean",
    ).length;
    const leaked = passwords.filter((p) => `${run.stdout}${run.stderr}`.includes(p)).length;
    if (adopted !== subAccounts || requests.writes !== 0 || leaked !== 0) {
      throw new Error(
        `adopted ${adopted}/${subAccounts}, writes ${requests.writes} (${requests.writeRoutes.join(", ")}), Passwords in the output ${leaked}:\n${run.stdout}${run.stderr}`.slice(
          0,
          8000,
        ),
      );
    }
    const record = {
      run: new Date().toISOString(),
      machine: `${os.cpus().length} CPUs, Node ${process.version}, load average (1 min) ${load} at the start`,
      subAccounts,
      connectorsPerSubAccount: perAccount,
      wallMs,
      requests,
      adopted,
    };
    await fs.writeFile(path.join(repoRoot, "bench", "fleet-adopt.json"), `${JSON.stringify(record, null, 2)}\n`);
    const command = `npm run bench:adopt -- --sub-accounts ${subAccounts} --connectors ${perAccount}`;
    await writeMeasuredSection(
      repoRoot,
      "fleet-adopt",
      [
        "## `fleet adopt` of existing sub-accounts (issue 41)",
        "",
        `Run ${record.run}, ${record.machine}. Command: \`${command}\` (bench/adopt.ts; data in bench/fleet-adopt.json).`,
        `${subAccounts} sub-accounts of one customer, ${perAccount} connectors each, configured by the customer through the service's API`,
        "(their Passwords included); the local service in its own process, rate limit off. Wall time of the whole",
        "`fleet adopt`: reading each sub-account, the stack files, the import, and the proof (`fleet preview`, `fleet drift`).",
        "",
        "| sub-accounts × connectors | wall time | adopted (no change, no drift) | requests | token | reads | writes |",
        "|---|---|---|---|---|---|---|",
        `| ${subAccounts} × ${perAccount} | ${(wallMs / 1000).toFixed(1)} s | ${adopted} | ${requests.total} | ${requests.token} | ${requests.reads} | ${requests.writes} |`,
      ].join("\n"),
    );
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
    await service.stop();
    await disposeEngine();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
