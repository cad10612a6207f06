// docs/local-service.md's web page, as a person would use it: the service started as the doc
// says (EMBEDDED_SERVICE_UI=1 here, the flag's twin) prints the page's address with the admin
// key, the page and the admin API answer with it, and the doc's one-line curl, run as written,
// changes the bucket and keeps every other field, the Password included.
import { strict as assert } from "node:assert";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { closeClients, getClient } from "../../provider/client";
import { CATALOGUE } from "../../service/seed/catalogue";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const S3 = CATALOGUE.find((c) => c.name === "Amazon S3");

/** The doc's sh block that holds `curl -s -X PATCH`. */
function curlLine(): string {
  const doc = readFileSync(path.join(ROOT, "docs", "local-service.md"), "utf8");
  const block = [...doc.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].find((m) => m[1].includes("curl -s -X PATCH"));
  assert.ok(block, "docs/local-service.md gives the one-line curl");
  return block[1];
}

/** Starts `npm run service`'s program and resolves with what it printed once it listens. */
function startService(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; printed: string }> {
  const server = path.join(ROOT, "dist", "service", "server.js");
  const child = spawn(process.execPath, [server, "--port", "0", "--db", ":memory:", "--no-log"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let printed = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      if (printed.includes("OpenAPI:")) resolve({ child, printed });
    });
    child.stderr?.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`the service exited (${code}):\n${printed}`)));
  });
}

describe("docs: the local service's web page and its one-line curl", function () {
  this.timeout(60_000);
  let child: ChildProcess | undefined;
  after(async () => {
    child?.kill("SIGTERM");
    await closeClients();
  });

  it("EMBEDDED_SERVICE_UI=1 prints the page's address with a key; the doc's curl changes one field and keeps the rest", async () => {
    assert.ok(S3);
    const started = await startService({ EMBEDDED_SERVICE_UI: "1" });
    child = started.child;
    const page = /web page: (http:\/\/127\.0\.0\.1:\d+)\/ui#key=([0-9a-f]+)\n/.exec(started.printed);
    assert.ok(page, `the service prints the page's address:\n${started.printed}`);
    const [, base, key] = page;
    assert.equal((await fetch(`${base}/ui`)).status, 200);
    assert.equal((await fetch(`${base}/_admin/overview`, { headers: { "x-admin-key": key } })).status, 200);

    const client = getClient({ baseUrl: base, clientId: "demo-client", clientSecret: "demo-secret" });
    const account = "239a5bbdbe543163";
    await client.addConnectors(account, [S3.connectorId]);
    const program = { bucket: "acme-exports", accessKeyId: "AKIAEXAMPLE", secretAccessKey: "x", region: "eu-west-1" };
    const configurationId = S3.secretConfiguration.configurationId;
    const before = await client.configure(account, S3.connectorId, { configurationId, secretConfig: program });

    const env = { ...process.env, BASE: base, KEY: key, A: account, S3: S3.connectorId };
    const { stdout } = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", curlLine()], { env });
    assert.match(stdout, /"statusCode":200/);

    const after = await client.getConfiguration(account, S3.connectorId);
    const values = (view: typeof after) => Object.fromEntries(view.configuration.map((f) => [f.id, f.value]));
    assert.deepEqual(values(after), { ...values(before), bucket: "changed-by-hand" });
    assert.ok((after.lastUpdated ?? 0) > (before.lastUpdated ?? 0), "lastUpdated moved");
  });
});
