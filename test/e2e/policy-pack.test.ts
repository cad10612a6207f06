// The policy pack (docs/policy.md) under the real engine: `pulumi preview --policy-pack policy/
// --policy-pack-config <file>` on the plugin's resources from YAML, Python, Go and TypeScript and
// on the dynamic ones, one stack each on one service (policy-hosts.ts). One preview violates every rule at once and is
// blocked, each rule naming the resource and what to change; one compliant preview passes. No
// canary (the Password, set in plain in the stack file by the violating run) appears in anything
// the engine printed, in any letter case. On the dynamic host's stack, a Password the service
// holds (`heldByService`) passes only where the config allows it. The fleet's reports:
// fleet-policy.test.ts.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { E2EStack, ENGINE_TIMEOUT_MS, ensureEngine } from "./harness";
import { assertNoLeak, canary, replayCanariesOnFailure } from "./canaries";
import { S3, serviceSettings, startService, type E2EService } from "./fixtures";
import { engineFailure } from "./plugin-fixtures";
import { repoRoot } from "../../harness/engine";
import { POLICY_CONFIG, policyPackDir, RULE_SAYS } from "./policy-fixture";
import { heldConfig, KEEPS_LEFT_OUT_FIELDS, POLICY_HOSTS, readIdsAsSecrets } from "./policy-hosts";

describe("e2e: the policy pack blocks what breaks a rule, on both hosts, in YAML, Python, Go and TypeScript", function () {
  this.timeout(ENGINE_TIMEOUT_MS * 3);
  replayCanariesOnFailure();
  let svc: E2EService;
  let configFile: string;
  let heldAllowedFile: string;
  let profileFile: string;
  let configurationId: string;
  const password = canary("policy-password");

  before(async function () {
    this.timeout(30 * 60_000); // a cold engine build
    await ensureEngine();
    svc = await startService();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "policy-config-"));
    configFile = path.join(dir, "policy-config.json");
    await fs.writeFile(configFile, JSON.stringify(POLICY_CONFIG(svc.accountId), null, 2));
    // The same rules, Amazon S3's Passwords allowed to be held by the service.
    heldAllowedFile = path.join(dir, "held-allowed.json");
    const heldAllowed = {
      ...POLICY_CONFIG(svc.accountId),
      "embedded-passwords-from-secrets": { enforcementLevel: "mandatory", heldByService: [{ name: "Amazon S3" }] },
    };
    await fs.writeFile(heldAllowedFile, JSON.stringify(heldAllowed, null, 2));
    profileFile = path.join(dir, "keeps-left-out-fields.yaml");
    await fs.writeFile(profileFile, KEEPS_LEFT_OUT_FIELDS);
    const view = await svc.outOfBand.getConfiguration(svc.accountId, S3);
    configurationId = (view.secretConfig as { configurationId: string }[])[0].configurationId;
  });
  after(async () => {
    await svc?.service.stop();
  });

  for (const host of POLICY_HOSTS) {
    describe(host.name, function () {
      let stack: E2EStack;
      let started = 0;
      const policy = () => ({ policyPacks: [policyPackDir], policyPackConfigs: [configFile] });
      const declare = async (violating: boolean) => {
        const { config, secretConfig } = host.config({ violating, password, configurationId, svc });
        // A key turns from secret to plain or back: removed first, as a user would.
        for (const key of ["configurationId", "secretAccessKey"]) await stack.removeConfig(key).catch(() => undefined);
        await stack.setConfig(config, secretConfig);
        await readIdsAsSecrets(host, stack.workDir, violating);
      };

      before(async function () {
        this.timeout(30 * 60_000); // a cold toolchain (the Go build cache, a virtualenv)
        const env = (await host.env?.()) ?? {};
        started = Date.now();
        const { config, secretConfig } = host.config({ violating: true, password, configurationId, svc });
        stack = await E2EStack.create({
          program: host.program,
          name: `policy-${host.program}`,
          service: serviceSettings(svc),
          config,
          secretConfig,
          env,
        });
        await host.adapt?.(stack.workDir, env);
        // The engine starts the pack in its own directory; it finds the program's by PWD, as a shell sets it.
        stack.stack.workspace.envVars.PWD = stack.workDir;
      });
      after(async function () {
        this.timeout(ENGINE_TIMEOUT_MS);
        if (!stack) return;
        console.error(`      ${host.name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
        assertNoLeak(stack.engineOutput(), password, `what the engine printed (${host.name})`);
        await stack.stack.workspace.removeStack(stack.name).catch(() => undefined);
      });

      it("a preview breaking every rule is blocked; each violation names the resource, the rule and the fix", async () => {
        await declare(true);
        const { printed } = await engineFailure(() => stack.preview(policy()));
        for (const [rule, says] of Object.entries(RULE_SAYS)) {
          assert.ok(printed.includes(rule), `${rule} reported, in:\n${printed.slice(-6000)}`);
          for (const pattern of says)
            assert.match(printed, pattern, `${rule}: ${pattern} in:\n${printed.slice(-6000)}`);
        }
        assertNoLeak(printed, password, "the blocked preview's output");
      });

      it("a compliant preview passes", async () => {
        await declare(false);
        const result = await stack.preview(policy());
        for (const rule of Object.keys(RULE_SAYS)) {
          assert.ok(!result.stdout.includes(rule), `${rule} not reported, in:\n${result.stdout}`);
        }
        assertNoLeak(result.stdout + result.stderr, password, "the compliant preview's output");
      });

      // heldByService once, on one host's stack: the rule reads the resource's inputs alike on every host.
      if (host.program !== "connectors") return;
      it("a Password held by the service passes where the config allows it for the connector, and is blocked otherwise", async () => {
        // The local service keeps the fields a Configure leaves out under this profile, so the
        // provider's own check lets the held Password be; the pack alone decides.
        await stack.stack.setConfig("embedded:serviceProfile", { value: profileFile });
        const { config, secretConfig } = heldConfig({ violating: false, password, configurationId, svc });
        await stack.setConfig(config, secretConfig);
        const allowed = await stack.preview({ policyPacks: [policyPackDir], policyPackConfigs: [heldAllowedFile] });
        for (const rule of Object.keys(RULE_SAYS))
          assert.ok(!allowed.stdout.includes(rule), `${rule} not reported, in:\n${allowed.stdout}`);
        const { printed } = await engineFailure(() => stack.preview(policy()));
        assert.match(
          printed,
          /embedded-passwords-from-secrets[\s\S]*ConnectorConfiguration "sourceConfiguration": heldByService \("secretAccessKey"\) leaves Passwords of connector "Amazon S3" \(\w+, [^)]*, Source\) to the service, which embedded-passwords-from-secrets allows only for: none; remove heldByService/,
          printed.slice(-6000),
        );
        for (const rule of Object.keys(RULE_SAYS).filter((r) => r !== "embedded-passwords-from-secrets"))
          assert.ok(
            !printed.includes(rule),
            `only the held Password is reported, not ${rule}:\n${printed.slice(-6000)}`,
          );
        assertNoLeak(allowed.stdout + allowed.stderr + printed, password, "the heldByService previews' output");
      });
    });
  }

  it("the pack folder is what the package ships", async () => {
    const pkg = JSON.parse(await fs.readFile(path.join(repoRoot, "package.json"), "utf8")) as { files: string[] };
    assert.ok(pkg.files.includes("policy"));
    await fs.access(path.join(policyPackDir, "PulumiPolicy.yaml"));
    // @pulumi/policy reads the pack's version from its folder's package.json: the package's own.
    const pack = JSON.parse(await fs.readFile(path.join(policyPackDir, "package.json"), "utf8")) as { version: string };
    const own = JSON.parse(await fs.readFile(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
    assert.equal(pack.version, own.version);
  });
});
