// `fleet operator`: one Pulumi Kubernetes Operator `Stack` per stack, validated against the
// Stack CRD of operator v2.9.0 (its openAPIV3Schema, vendored in fixtures/) the way
// `kubectl apply` with strict field validation checks it: types, enums, required fields,
// no unknown fields, and the CRD's validation rule on the object's name.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import Ajv from "ajv";
import { parseAllDocuments } from "yaml";
import { repoRoot } from "../../../../harness/engine";

const execFileAsync = promisify(execFile);
const cli = path.join(repoRoot, "dist", "cli", "main.js");
const CRD = path.join(repoRoot, "test", "support", "fixtures", "operator", "operator-v2.9.0-stack-crd-v1.json");

type Schema = Record<string, unknown>;
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: Record<string, unknown>;
}

/**
 * The CRD's schema as the API server applies it: an object schema that lists its properties
 * takes no others (strict field validation), unless x-kubernetes-preserve-unknown-fields;
 * x-kubernetes-int-or-string takes an integer or a string.
 */
function structural(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(structural);
  if (!schema || typeof schema !== "object") return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (k.startsWith("x-kubernetes-")) continue;
    out[k] =
      k === "properties"
        ? Object.fromEntries(Object.entries(v as Schema).map(([p, s]) => [p, structural(s)]))
        : structural(v);
  }
  const s = schema as Schema;
  if (s["x-kubernetes-int-or-string"] === true) return { ...out, type: ["integer", "string"] };
  if (s.properties && s.additionalProperties === undefined && s["x-kubernetes-preserve-unknown-fields"] !== true)
    out.additionalProperties = false;
  return out;
}

/** The CRD's x-kubernetes-validations at the root: only rules of the form size(self.<path>) <= N are known. */
function celFailures(schema: Schema, manifest: unknown): string[] {
  const rules = (schema["x-kubernetes-validations"] ?? []) as { rule: string; message: string }[];
  return rules.flatMap(({ rule, message }) => {
    const m = /^size\(self\.([\w.]+)\) <= (\d+)$/.exec(rule);
    if (!m) throw new Error(`the test does not know the CRD's rule ${rule}: teach it`);
    const value = m[1].split(".").reduce<unknown>((o, k) => (o as Schema | undefined)?.[k], manifest);
    return typeof value === "string" && value.length > Number(m[2]) ? [message] : [];
  });
}

describe("cli: fleet operator manifests against the operator v2.9.0 Stack CRD", function () {
  this.timeout(60_000); // compiling the CRD schema, starting the CLI
  let dir: string;
  let validate: (m: unknown) => string[];

  before(async () => {
    const crd = JSON.parse(await fs.readFile(CRD, "utf8")) as { openAPIV3Schema: Schema };
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const check = ajv.compile(structural(crd.openAPIV3Schema) as Schema);
    validate = (m) =>
      (check(m)
        ? []
        : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)
      ).concat(celFailures(crd.openAPIV3Schema, m));
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "fleet-operator-"));
    await fs.writeFile(path.join(dir, "Pulumi.yaml"), "name: embedded-fleet\nruntime: nodejs\n");
    for (const s of ["acme-eu", "Globex_Main", "a-sub-account-whose-name-is-far-too-long-for-kubernetes"]) {
      await fs.writeFile(path.join(dir, `Pulumi.${s}.yaml`), "config: {}\n");
    }
  });

  after(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("the validator refuses what the API server refuses (an unknown field, a wrong type, a long name)", () => {
    const good = {
      apiVersion: "pulumi.com/v1",
      kind: "Stack",
      metadata: { name: "x" },
      spec: { stack: "x", refresh: true },
    };
    assert.deepEqual(validate(good), []);
    assert.ok(
      validate({ ...good, spec: { ...good.spec, resyncFrequency: 60 } }).some((e) => e.includes("resyncFrequency")),
    );
    assert.ok(validate({ ...good, spec: { ...good.spec, refresh: "yes" } }).some((e) => e.includes("/spec/refresh")));
    assert.ok(validate({ ...good, spec: { refresh: true } }).some((e) => e.includes("stack")));
    assert.deepEqual(validate({ ...good, metadata: { name: "n".repeat(43) } }), [
      "Stack name must be no more than 42 characters in length.",
    ]);
  });

  it("writes one valid Stack per stack, with refresh and resync for drift, and never destroy on delete", async () => {
    const out = path.join(dir, "manifests");
    await execFileAsync(process.execPath, [
      cli,
      "fleet",
      "operator",
      "--dir",
      dir,
      "--repo",
      "https://github.com/acme/connectors-infra",
      "--repo-dir",
      "infra/fleet",
      "--namespace",
      "connectors",
      "--secret-env",
      "ACME_CLIENT_SECRET,GLOBEX_CLIENT_SECRET",
      "--resync",
      "900",
      "--out",
      out,
    ]);
    const files = (await fs.readdir(out)).sort();
    assert.equal(files.length, 3);
    const manifests: Manifest[] = [];
    for (const f of files) {
      const docs = parseAllDocuments(await fs.readFile(path.join(out, f), "utf8"));
      assert.equal(docs.length, 1, f);
      manifests.push(docs[0].toJS() as Manifest);
    }
    for (const m of manifests) assert.deepEqual(validate(m), [], `${m.metadata.name}`);
    assert.deepEqual(manifests.map((m) => m.spec.stack).sort(), [
      "Globex_Main",
      "a-sub-account-whose-name-is-far-too-long-for-kubernetes",
      "acme-eu",
    ]);
    assert.equal(new Set(manifests.map((m) => m.metadata.name)).size, 3);
    const acme = manifests.find((m) => m.spec.stack === "acme-eu")!;
    assert.equal(acme.metadata.name, "embedded-fleet-acme-eu");
    assert.deepEqual(
      [
        acme.spec.refresh,
        acme.spec.continueResyncOnCommitMatch,
        acme.spec.resyncFrequencySeconds,
        acme.spec.destroyOnFinalize,
        acme.spec.repoDir,
      ],
      [true, true, 900, false, "infra/fleet"],
    );
    assert.deepEqual(Object.keys(acme.spec.envRefs as object), [
      "PULUMI_BACKEND_URL",
      "PULUMI_CONFIG_PASSPHRASE",
      "ACME_CLIENT_SECRET",
      "GLOBEX_CLIENT_SECRET",
    ]);
  });

  it("examples/gitops/operator-stack.yaml is valid too", async () => {
    const docs = parseAllDocuments(
      await fs.readFile(path.join(repoRoot, "examples", "gitops", "operator-stack.yaml"), "utf8"),
    );
    assert.equal(docs.length, 1);
    assert.deepEqual(validate(docs[0].toJS()), []);
  });

  it("stdout holds the same manifests as one multi-document YAML", async () => {
    const { stdout } = await execFileAsync(process.execPath, [
      cli,
      "fleet",
      "operator",
      "--dir",
      dir,
      "--repo",
      "https://example.com/r.git",
    ]);
    const docs = parseAllDocuments(stdout).map((d) => d.toJS() as Manifest);
    assert.equal(docs.length, 3);
    for (const m of docs) assert.deepEqual(validate(m), [], m.metadata.name);
  });

  it("only stack names Pulumi accepts are listed; a U+0085 file name is reported, not written", async () => {
    const odd = await fs.mkdtemp(path.join(os.tmpdir(), "fleet-operator-names-"));
    try {
      await fs.writeFile(path.join(odd, "Pulumi.yaml"), "name: embedded-fleet\nruntime: nodejs\n");
      const bad = ["evil\u0085kind: Secret", "line\u2028break", "space name", "x".repeat(101)];
      for (const s of ["acme-eu", ...bad]) await fs.writeFile(path.join(odd, `Pulumi.${s}.yaml`), "config: {}\n");
      const { stdout, stderr } = await execFileAsync(process.execPath, [
        cli,
        "fleet",
        "operator",
        "--dir",
        odd,
        "--repo",
        "https://example.com/r.git",
      ]);
      assert.ok(!/[\u0085\u2028\u2029]/.test(stdout), "no raw U+0085/U+2028/U+2029 in the manifests");
      const docs = parseAllDocuments(stdout).map((d) => d.toJS() as Manifest);
      assert.deepEqual(
        docs.map((m) => m.spec.stack),
        ["acme-eu"],
      );
      assert.deepEqual(validate(docs[0]), []);
      for (const s of bad) assert.ok(!stdout.includes(s), JSON.stringify(s));
      assert.equal(stderr.match(/not a Pulumi stack name/g)?.length, bad.length, stderr);
      assert.match(stderr, /skipped "Pulumi\.evil\\u0085kind: Secret\.yaml": not a Pulumi stack name/);
    } finally {
      await fs.rm(odd, { recursive: true, force: true });
    }
  });
});
