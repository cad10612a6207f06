// `pulumi-embedded-connectors fleet new`: the one command that writes a sub-account's reviewed
// file, as the CLI a user runs (dist/cli/main.js).
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { repoRoot } from "../../../../harness/engine";

const execFileAsync = promisify(execFile);
const cli = path.join(repoRoot, "dist", "cli", "main.js");

async function run(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return execFileAsync(process.execPath, [cli, ...args], { cwd })
    .then((r) => ({ code: 0, ...r }))
    .catch((e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }));
}

describe("cli: fleet new", function () {
  this.timeout(60_000); // each case starts the CLI
  let dir: string;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "fleet-new-"));
    await fs.writeFile(path.join(dir, "Pulumi.yaml"), "name: embedded-fleet # the project\nruntime:\n  name: nodejs\n");
  });

  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("writes Pulumi.<stack>.yaml in structured config: account, customer, connectors, secrets by name only", async () => {
    const connectors = {
      connectors: {
        s3: {
          name: "Amazon S3",
          supportedType: "Source",
          values: { bucket: "acme-exports", region: "eu-west-1", fileFormats: ["csv", "parquet"], maxFileSizeMb: 512 },
          secrets: { secretAccessKey: { config: "s3SecretAccessKey" } },
        },
        segment: {
          name: "Segment",
          supportedType: "Source",
          values: { workspace: "true", batchSize: 500 },
          secrets: { apiKey: { env: "SEGMENT_KEY" } },
        },
      },
    };
    await fs.writeFile(path.join(dir, "acme.json"), JSON.stringify(connectors));
    const result = await run(
      [
        "fleet",
        "new",
        "acme-eu",
        "--account-id",
        "0239a5bbdbe54316",
        "--customer",
        "acme",
        "--connectors",
        "acme.json",
      ],
      dir,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /wrote Pulumi\.acme-eu\.yaml/);
    assert.match(result.stdout, /pulumi config set --secret s3SecretAccessKey --stack acme-eu/);
    const parsed = parse(await fs.readFile(path.join(dir, "Pulumi.acme-eu.yaml"), "utf8")) as {
      config: Record<string, unknown>;
    };
    assert.deepEqual(parsed.config, {
      "embedded-fleet:accountId": "0239a5bbdbe54316", // a string, though it looks like a number
      "embedded-fleet:customer": "acme",
      "embedded-fleet:connectors": connectors.connectors,
    });
  });

  it("refuses a secret given as a value, and an existing file without --force", async () => {
    await fs.writeFile(
      path.join(dir, "bad.json"),
      JSON.stringify({
        connectors: {
          s3: { name: "Amazon S3", supportedType: "Source", secrets: { secretAccessKey: "plain-secret-value-91ab" } },
        },
      }),
    );
    const bad = await run(["fleet", "new", "x", "--account-id", "a1a1a1a1a1a1a1a1", "--connectors", "bad.json"], dir);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /secret field "secretAccessKey" must be \{ "config": .* never a value/);
    assert.ok(!bad.stderr.includes("plain-secret-value-91ab"));
    await assert.rejects(fs.stat(path.join(dir, "Pulumi.x.yaml")));

    assert.equal((await run(["fleet", "new", "y", "--account-id", "a1a1a1a1a1a1a1a1"], dir)).code, 0);
    const again = await run(["fleet", "new", "y", "--account-id", "a2a2a2a2a2a2a2a2"], dir);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /Pulumi\.y\.yaml exists: edit it, or pass --force/);
  });

  it("--force never drops a stack's encrypted secrets, and names with ': ' stay valid YAML", async () => {
    const file = path.join(dir, "Pulumi.z.yaml");
    const held = "encryptionsalt: v1:abc:def\nconfig:\n  embedded-fleet:s3SecretAccessKey:\n    secure: v1:xyz\n";
    await fs.writeFile(file, held);
    const forced = await run(["fleet", "new", "z", "--account-id", "a3a3a3a3a3a3a3a3", "--force"], dir);
    assert.equal(forced.code, 1);
    assert.match(forced.stderr, /encrypted secrets .*--force would lose them/);
    assert.equal(await fs.readFile(file, "utf8"), held, "the file is left as it was");

    const named = await run(["fleet", "new", "w", "--account-id", "a4a4a4a4a4a4a4a4", "--customer", "Acme: EU"], dir);
    assert.equal(named.code, 0, named.stderr);
    const parsed = parse(await fs.readFile(path.join(dir, "Pulumi.w.yaml"), "utf8")) as {
      config: Record<string, unknown>;
    };
    assert.equal(parsed.config["embedded-fleet:customer"], "Acme: EU");
  });

  it("--account-id by the id rule and --customer on one line; no line break reaches the file", async () => {
    const breaks = ["\n", "\r", "\u0085", "\u2028", "\u2029"];
    for (const br of breaks) {
      const injected = `0239a5bbdbe54316${br}secretsprovider: awskms://alias/attacker`;
      const account = await run(["fleet", "new", "v", "--account-id", injected], dir);
      assert.equal(account.code, 1, JSON.stringify(br));
      assert.match(account.stderr, /--account-id must be a sub-account id, a 16-character alphanumeric id/);
      assert.ok(!/\n\s+at /.test(account.stderr), "no stack trace");
      const customer = await run(
        ["fleet", "new", "v", "--account-id", "0239a5bbdbe54316", "--customer", `acme${br}secretsprovider: x`],
        dir,
      );
      assert.equal(customer.code, 1, JSON.stringify(br));
      assert.match(customer.stderr, /--customer must be a customer's name on one line/);
      await assert.rejects(fs.stat(path.join(dir, "Pulumi.v.yaml")), /ENOENT/);
    }
    for (const bad of ["0239a5bbdbe5431", "0239a5bbdbe54316 ", "../../etc/passwd"]) {
      assert.equal((await run(["fleet", "new", "v", "--account-id", bad], dir)).code, 1, bad);
    }
    // With a customers.json, the customer must be one of its keys.
    await fs.writeFile(path.join(dir, "customers.json"), JSON.stringify({ acme: {}, "Acme: EU": {} }));
    const unknown = await run(["fleet", "new", "v", "--account-id", "0239a5bbdbe54316", "--customer", "initech"], dir);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no such customer in .*customers\.json \(its customers: acme, Acme: EU\)/);
    // Connector keys and names from --connectors with U+0085/U+2028 stay one line each, escaped.
    const connectors = {
      connectors: { "s3\u2028secretsprovider: x": { name: "S3\u0085encryptedkey: y", supportedType: "Source" } },
    };
    await fs.writeFile(path.join(dir, "c.json"), JSON.stringify(connectors));
    const ok = await run(
      ["fleet", "new", "v", "--account-id", "0239a5bbdbe54316", "--customer", "acme", "--connectors", "c.json"],
      dir,
    );
    assert.equal(ok.code, 0, ok.stderr);
    const text = await fs.readFile(path.join(dir, "Pulumi.v.yaml"), "utf8");
    assert.ok(!/[\u0085\u2028\u2029\r]/.test(text), "no raw line break other than the file's own");
    assert.ok(
      !text.split("\n").some((l) => l.startsWith("#") && /0239a5bbdbe54316|acme/.test(l)),
      "no raw value in a comment",
    );
    const parsed = parse(text) as Record<string, unknown> & { config: Record<string, unknown> };
    assert.deepEqual(Object.keys(parsed), ["config"]);
    assert.deepEqual(parsed.config["embedded-fleet:connectors"], connectors.connectors);
  });

  it("--force parses the file and refuses encryptionsalt, encryptedkey, secretsprovider, secure (YAML or JSON)", async () => {
    const file = path.join(dir, "Pulumi.k.yaml");
    const held = {
      "JSON-form salt": JSON.stringify({ encryptionsalt: "v1:abc", config: {} }),
      "JSON-form secure value": JSON.stringify({ config: { "embedded-fleet:key": { secure: "v1:xyz" } } }),
      "KMS encryptedkey": "secretsprovider: awskms://alias/fleet\nencryptedkey: AQICAHh\nconfig: {}\n",
      "secretsprovider alone": "secretsprovider: 'hashivault://fleet'\n",
      "flow-style secure": "config: {embedded-fleet:key: {secure: 'v1:xyz'}}\n",
      "secure in a list": "config:\n  embedded-fleet:list:\n    - secure: v1:xyz\n",
      "not YAML": "config: [unclosed\n",
    };
    for (const [what, text] of Object.entries(held)) {
      await fs.writeFile(file, text);
      const forced = await run(["fleet", "new", "k", "--account-id", "0239a5bbdbe54316", "--force"], dir);
      assert.equal(forced.code, 1, what);
      assert.match(forced.stderr, /holds encrypted secrets \(.*\): --force would lose them/, what);
      assert.equal(await fs.readFile(file, "utf8"), text, `${what}: the file is left as it was`);
    }
    for (const text of [
      "",
      "config: {}\n",
      JSON.stringify({ config: { "embedded-fleet:accountId": "x", "embedded-fleet:note": "secure" } }),
    ]) {
      await fs.writeFile(file, text);
      const forced = await run(["fleet", "new", "k", "--account-id", "0239a5bbdbe54316", "--force"], dir);
      assert.equal(forced.code, 0, `${JSON.stringify(text)}: ${forced.stderr}`);
    }
  });
});
