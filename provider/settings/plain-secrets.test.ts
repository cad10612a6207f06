// settings/plain-secrets.ts: the one judgement of a secret setting given in plain text. Its policy
// (programs and doctor warn, the fleet refuses), its words (the command that fixes it, never the
// value), and every reader giving those same words for the same input: the dynamic host's
// program, the plugin's Configure (default and explicit provider), `doctor` and the fleet.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { plainSecretRefusals } from "../../cli/fleet/plain-secrets";
import { readProject } from "../../cli/fleet/project";
import { resolveDoctorSettings } from "../doctor/command";
import { configureVerdict, plainInStackFile } from "../hosts/plugin/provider-config";
import { judgePlainSecrets, PLAIN_SECRET_POLICY, plainSecretMessage, plainSecretSettings } from "./plain-secrets";
import { plainSecretWarnings } from "./program-stack-config";

const SECRET = "plain-canary-3f9c1d";
const STACK = "dev";
const DEFAULT_PROVIDER = `urn:pulumi:${STACK}::proj::pulumi:providers:embedded::default_0_1_0`;
const EXPLICIT_PROVIDER = `urn:pulumi:${STACK}::proj::pulumi:providers:embedded::customer2`;
/** The words every reader must give for a client secret in plain text in Pulumi.dev.yaml. */
const IN_STACK_FILE = plainSecretMessage("clientSecret", { kind: "stack file", stack: STACK });

describe("settings: a secret setting given in plain text, judged once", () => {
  it("judges the secret settings only: the client secret and the digest key", () => {
    assert.deepEqual(
      plainSecretSettings(() => true),
      ["clientSecret", "digestKey"],
    );
    assert.deepEqual(
      plainSecretSettings((name) => name === "clientId"),
      [],
    );
  });

  it("says what is in plain text and the command that fixes it, never the value", () => {
    assert.equal(
      IN_STACK_FILE,
      "embedded:clientSecret is stored in plain text in the stack's config file (Pulumi.dev.yaml): encrypt it with " +
        "`pulumi config set --secret embedded:clientSecret --stack dev` (it prompts for the value)",
    );
    assert.match(
      plainSecretMessage("digestKey", { kind: "stack file" }),
      /\(Pulumi\.<stack>\.yaml\).*--secret embedded:digestKey`/,
    );
    const argument = plainSecretMessage("clientSecret", { kind: "provider argument" });
    // Every language's way to mark it, since the plugin cannot tell which language runs.
    for (const form of [
      'config.requireSecret("clientSecret")',
      'config.require_secret("clientSecret")',
      'cfg.RequireSecret("clientSecret")',
      "fn::secret",
      "EMBEDDED_CLIENT_SECRET",
    ])
      assert.ok(argument.includes(form), `${form} in: ${argument}`);
  });

  it("the policy: a program and doctor warn and go on; the fleet refuses the stack, in the same words", () => {
    assert.deepEqual(PLAIN_SECRET_POLICY, { program: "warn", doctor: "warn", fleet: "refuse" });
    const place = { kind: "stack file", stack: STACK } as const;
    assert.deepEqual(judgePlainSecrets("program", ["clientSecret"], place), { warnings: [IN_STACK_FILE] });
    assert.deepEqual(judgePlainSecrets("doctor", ["clientSecret"], place), { warnings: [IN_STACK_FILE] });
    assert.deepEqual(judgePlainSecrets("fleet", ["clientSecret"], place), {
      warnings: [],
      refusal: `not run: ${IN_STACK_FILE}`,
    });
    assert.deepEqual(judgePlainSecrets("fleet", [], place), { warnings: [] });
  });

  it("the docs quote these words and state the policy", () => {
    const flat = (file: string) => readFileSync(path.join(__dirname, "../../..", file), "utf8").replace(/\s+/g, " ");
    for (const doc of ["docs/installation-configuration.md", "docs/secrets.md"])
      assert.ok(flat(doc).includes(IN_STACK_FILE), `${doc} quotes the message as the readers give it`);
    const settingsDoc = flat("docs/installation-configuration.md");
    assert.match(settingsDoc, /A program warns, and goes on/);
    assert.match(settingsDoc, /`fleet` refuses the stack/);
  });

  describe("every reader, the same input (embedded:clientSecret in plain text in Pulumi.dev.yaml)", () => {
    let dir: string;
    const cwd = process.cwd();
    const plainFile = `config:\n  embedded:clientSecret: ${SECRET}\n`;
    const secureFile = "config:\n  embedded:clientSecret:\n    secure: v1:AAAA\n";
    const writeStackFile = (text: string) => writeFileSync(path.join(dir, `Pulumi.${STACK}.yaml`), text);

    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), "plain-secret-readers-"));
      writeFileSync(path.join(dir, "Pulumi.yaml"), "name: proj\nruntime: nodejs\n");
    });
    after(() => {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    });

    it("the dynamic host's program: one warning, these words", async () => {
      await pulumi.runtime.setMocks(
        { newResource: (a) => ({ id: a.name, state: a.inputs }), call: (a) => a.inputs },
        "proj",
        STACK,
      );
      const before = pulumi.runtime.allConfig();
      try {
        pulumi.runtime.setAllConfig({ "embedded:clientSecret": SECRET });
        assert.deepEqual(plainSecretWarnings(), [IN_STACK_FILE]);
        pulumi.runtime.setAllConfig({ "embedded:clientSecret": SECRET }, ["embedded:clientSecret"]);
        assert.deepEqual(plainSecretWarnings(), []);
      } finally {
        pulumi.runtime.setAllConfig(before);
      }
    });

    it("the plugin's default provider (Python, Go, YAML, TypeScript): one warning, these words", () => {
      const verdict = () =>
        configureVerdict(
          { clientSecret: SECRET },
          new Set(["clientSecret"]),
          DEFAULT_PROVIDER,
          plainInStackFile(DEFAULT_PROVIDER, dir),
        );
      writeStackFile(plainFile);
      assert.deepEqual(verdict().warnings, [IN_STACK_FILE]);
      // The engine hands the default provider the client secret as a secret whatever the file holds:
      // the plugin reads the file (in the project's directory), for a Python, Go or YAML program too.
      writeStackFile(secureFile);
      assert.deepEqual(verdict().warnings, []);
      writeStackFile("config:\n  embedded:clientId: demo-client\n");
      assert.deepEqual(verdict().warnings, []);
      // An explicit provider's arguments are the program's, not the stack file's.
      writeStackFile(plainFile);
      const explicit = plainInStackFile(EXPLICIT_PROVIDER, dir);
      assert.deepEqual(
        configureVerdict({ clientSecret: SECRET }, new Set(["clientSecret"]), EXPLICIT_PROVIDER, explicit).warnings,
        [],
      );
      // An explicit provider's argument given plain: the same judgement, the place's own words.
      assert.deepEqual(configureVerdict({ clientSecret: SECRET }, new Set(), EXPLICIT_PROVIDER).warnings, [
        plainSecretMessage("clientSecret", { kind: "provider argument" }),
      ]);
    });

    it("doctor: one warning on stderr, these words, and it goes on", () => {
      const fake = path.join(dir, "fake-pulumi");
      const config = (secret: boolean) => ({
        "embedded:baseUrl": { value: "https://connectors.example.com", secret: false },
        "embedded:clientId": { value: "id", secret: false },
        "embedded:clientSecret": { value: SECRET, secret },
        "embedded:accountId": { value: "acct", secret: false },
      });
      const written: string[] = [];
      const write = process.stderr.write.bind(process.stderr);
      process.chdir(dir);
      process.stderr.write = ((text: string) => written.push(text) > 0) as typeof process.stderr.write;
      try {
        writeFileSync(fake, `#!/bin/sh\necho '${JSON.stringify(config(false))}'\n`);
        chmodSync(fake, 0o755);
        const settings = resolveDoctorSettings({ pulumi: fake, stack: STACK }, {});
        assert.equal(settings.clientSecret, SECRET, "it goes on with the setting");
        writeFileSync(fake, `#!/bin/sh\necho '${JSON.stringify(config(true))}'\n`);
        resolveDoctorSettings({ pulumi: fake, stack: STACK }, {});
      } finally {
        process.stderr.write = write;
        process.chdir(cwd);
      }
      assert.deepEqual(written, [`doctor: warning: ${IN_STACK_FILE}\n`]);
    });

    it("the fleet: the stack refused in these words, a secure: one run", async () => {
      writeFileSync(path.join(dir, "customers.json"), "{}");
      writeStackFile(plainFile);
      const project = await readProject(dir);
      assert.deepEqual([...(await plainSecretRefusals(project, [STACK]))], [[STACK, `not run: ${IN_STACK_FILE}`]]);
      writeStackFile(secureFile);
      assert.deepEqual([...(await plainSecretRefusals(project, [STACK]))], []);
    });
  });
});
