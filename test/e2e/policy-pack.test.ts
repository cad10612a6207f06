// The policy pack (docs/policy.md) under the real engine: `pulumi preview --policy-pack policy/
// --policy-pack-config <file>` on the plugin's resources from YAML and TypeScript and on the
// dynamic ones, one stack each on one service. One preview violates every rule at once and is
// blocked, each rule naming the resource and what to change; one compliant preview passes. No
// canary (the Password, set in plain in the stack file by the violating run) appears in anything
// the engine printed, in any letter case. The fleet's reports: fleet-policy.test.ts.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { E2EStack, ENGINE_TIMEOUT_MS, ensureEngine, type ProgramConfigValue } from "./harness";
import { assertNoLeak, canary, replayCanariesOnFailure } from "./canaries";
import { connectorId, FACEBOOK, S3, serviceSettings, startService, type E2EService } from "./fixtures";
import { engineFailure } from "./plugin-fixtures";
import { repoRoot } from "../../harness/engine";
import { POLICY_CONFIG, policyPackDir, RULE_SAYS } from "./policy-fixture";

const SEGMENT = connectorId("Segment");

/** What a run declares: the violating one breaks every rule, the compliant one none. */
interface Case {
  violating: boolean;
  password: string;
  configurationId: string;
  svc: E2EService;
}

type Declared = { config: Record<string, ProgramConfigValue>; secretConfig: Record<string, ProgramConfigValue> };

interface PolicyHost {
  name: string;
  program: string;
  config(c: Case): Declared;
}

const FIELDS = { bucket: "acme-exports", accessKeyId: "AKIAE2EEXAMPLE", region: "eu-west-1" };

function typescriptConfig(c: Case): Declared {
  return {
    config: {
      connectors: [
        { key: "source", connectorId: S3 },
        {
          key: "destination",
          connectorId: c.violating ? SEGMENT : FACEBOOK,
          accountId: c.violating ? c.svc.accountId : c.svc.otherAccountId,
        },
      ],
      configurations: [
        {
          key: "sourceConfiguration",
          connectorId: S3,
          after: "source",
          ...(c.violating
            ? { configurationIdRef: "configurationId", secretConfig: { ...FIELDS, secretAccessKey: c.password } }
            : {
                configurationId: c.configurationId,
                secretConfig: { ...FIELDS, fileFormats: ["csv"] },
                secretRefs: { secretAccessKey: "password" },
              }),
        },
      ],
    },
    secretConfig: {
      secretValues: { password: c.password },
      ...(c.violating ? { configurationId: c.configurationId } : {}),
    },
  };
}

function yamlConfig(c: Case): Declared {
  const ids = {
    sourceId: S3,
    destinationId: c.violating ? SEGMENT : FACEBOOK,
    destinationAccountId: c.violating ? c.svc.accountId : c.svc.otherAccountId,
  };
  return c.violating
    ? {
        config: { ...ids, ...FIELDS, secretAccessKey: c.password },
        secretConfig: { configurationId: c.configurationId },
      }
    : {
        config: { ...ids, ...FIELDS, configurationId: c.configurationId, fileFormats: "csv" },
        secretConfig: { secretAccessKey: c.password },
      };
}

const HOSTS: PolicyHost[] = [
  { name: "the plugin from YAML", program: "policy-yaml", config: yamlConfig },
  { name: "the plugin from TypeScript", program: "plugin", config: typescriptConfig },
  { name: "the dynamic provider (TypeScript)", program: "connectors", config: typescriptConfig },
];

describe("e2e: the policy pack blocks what breaks a rule, on both hosts, in YAML and TypeScript", function () {
  this.timeout(ENGINE_TIMEOUT_MS * 3);
  replayCanariesOnFailure();
  let svc: E2EService;
  let configFile: string;
  let configurationId: string;
  const password = canary("policy-password");

  before(async function () {
    this.timeout(30 * 60_000); // a cold engine build
    await ensureEngine();
    svc = await startService();
    configFile = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "policy-config-")), "policy-config.json");
    await fs.writeFile(configFile, JSON.stringify(POLICY_CONFIG(svc.accountId), null, 2));
    const view = await svc.outOfBand.getConfiguration(svc.accountId, S3);
    configurationId = (view.secretConfig as { configurationId: string }[])[0].configurationId;
  });
  after(async () => {
    await svc?.service.stop();
  });

  for (const host of HOSTS) {
    describe(host.name, function () {
      let stack: E2EStack;
      const policy = () => ({ policyPacks: [policyPackDir], policyPackConfigs: [configFile] });
      const declare = async (violating: boolean) => {
        const { config, secretConfig } = host.config({ violating, password, configurationId, svc });
        // A key turns from secret to plain or back: removed first, as a user would.
        for (const key of ["configurationId", "secretAccessKey"]) await stack.removeConfig(key).catch(() => undefined);
        await stack.setConfig(config, secretConfig);
      };

      before(async function () {
        this.timeout(30 * 60_000);
        const { config, secretConfig } = host.config({ violating: true, password, configurationId, svc });
        stack = await E2EStack.create({
          program: host.program,
          name: `policy-${host.program}`,
          service: serviceSettings(svc),
          config,
          secretConfig,
        });
        // The engine starts the pack in its own directory; it finds the program's by PWD, as a shell sets it.
        stack.stack.workspace.envVars.PWD = stack.workDir;
      });
      after(async function () {
        this.timeout(ENGINE_TIMEOUT_MS);
        if (!stack) return;
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
