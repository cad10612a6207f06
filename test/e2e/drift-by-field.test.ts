// Drift that says what changed, under the real engine, for the dynamic provider and
// the plugin from TypeScript (the plugin from YAML: yaml-example.test.ts). One stack per host
// configures Segment, whose fields cover every type; then, in sequence, one field of each type
// is changed out of band, and `pulumi preview --refresh --diff` and `pulumi refresh --diff` must
// name exactly that field and show neither its old nor its new value; each is repaired by an
// `up`. A Password changed alone is told in words. Right after an `up`, the drift check shows no
// changed property; `pulumi up --debug` prints no secretConfig value of any type, and on the plugin
// nothing printed or stored in clear, with the client secret, confirms a guess.
// On the dynamic host that holds only with `embedded:digestKey` set: the stack first runs without
// it (the warning names the command; a Text guess is confirmed: the documented gap), then sets it
// with --secret (no drift shown), and after the next writes nothing printed, nor the state, confirms
// a guess; the backend's history still holds the checkpoints written before the key.
// On the plugin's stack, a Text and a Password changed through the local service's web page in
// Chromium make README's drift check fail naming the Text.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { SET_DIGEST_KEY } from "../../provider/settings/resolve";
import { E2EStack, ENGINE_TIMEOUT_MS, type ProgramConfigValue } from "./harness";
import { connectorsStack, type E2EService, e2eSuite, SEGMENT } from "./fixtures";
import { pluginStack } from "./plugin-fixtures";
import { noBrowser, openUi, saveFields } from "../support/browser";
import { confirmsGuess } from "./offline-guess";
import {
  assertNoValue,
  assertQuiet,
  assertSecretConfigKept,
  fieldsMarkedChanged,
  updateStepOf,
  withoutStackOutputs,
} from "./drift-display";

/** Segment's settable fields (service/seed/catalogue.ts, "apiKey"). */
const FIELDS = ["apiKey", "workspace", "dataCenter", "eventTypes", "batchSize", "backfillFrom"];

/** The program's values, and one other value per type; each distinctive in any output. */
const PROGRAM = {
  workspace: `ws-${randomBytes(5).toString("hex")}`,
  dataCenter: "EU",
  eventTypes: ["track", "identify"],
  batchSize: 4321,
  backfillFrom: "2019-03-17",
};
const CHANGES: { type: string; field: keyof typeof PROGRAM; value: ProgramConfigValue; shown: string[] }[] = [
  { type: "Text", field: "workspace", value: `oob-${randomBytes(5).toString("hex")}`, shown: [PROGRAM.workspace] },
  { type: "Number", field: "batchSize", value: 8765, shown: ["4321", "8765"] },
  { type: "Date", field: "backfillFrom", value: "2021-11-05", shown: ["2019-03-17", "2021-11-05"] },
  { type: "Select", field: "dataCenter", value: "APAC", shown: ["EU", "APAC"] },
  { type: "Multi-Select", field: "eventTypes", value: ["purchase"], shown: ["track", "identify", "purchase"] },
];

/**
 * `detailedDiff`: whether the host's update names the fields it writes (`secretConfig.<field>`); the dynamic host has none.
 * `saltPrinted`: whether what keys the digests is printed (the dynamic host's `digestSalt` output; the plugin's is an
 * input) unless `embedded:digestKey` is set.
 */
const hosts: {
  host: string;
  detailedDiff: boolean;
  saltPrinted: boolean;
  create(
    svc: E2EService,
    config: Record<string, ProgramConfigValue>,
    secrets: Record<string, ProgramConfigValue>,
  ): Promise<E2EStack>;
}[] = [
  {
    host: "dynamic provider",
    detailedDiff: false,
    saltPrinted: true,
    create: (svc, config, secretConfig) => connectorsStack(svc, "drift-by-field-dynamic", config, secretConfig),
  },
  {
    host: "plugin",
    detailedDiff: true,
    saltPrinted: false,
    create: (svc, config, secretConfig) => pluginStack(svc, "drift-by-field-plugin", { config, secretConfig }),
  },
];

for (const { host, detailedDiff, saltPrinted, create } of hosts) {
  describe(`e2e: ${host}: drift names the fields, never the values`, function () {
    this.timeout(ENGINE_TIMEOUT_MS);
    const apiKey = `drift-key-${randomBytes(6).toString("hex")}`;
    const digestKey = randomBytes(32).toString("hex");
    /** The dynamic host's `up --debug` log from before the key was set. */
    let logBeforeKey = "";
    /** What the service holds now: the program's values, and the Password (out-of-band writes send it all). */
    const live = (): Record<string, unknown> => ({ ...PROGRAM, apiKey });

    const e2e = e2eSuite({
      service: { ui: true }, // the web page (service/ui/), for the change made through it
      stack: (svc) =>
        create(
          svc,
          {
            connectors: [{ key: "segment", connectorId: SEGMENT }],
            configurations: [
              {
                key: "segmentConfig",
                connectorId: SEGMENT,
                after: "segment",
                secretConfig: PROGRAM,
                secretRefs: { apiKey: "segmentKey" },
              },
            ],
          },
          { secretValues: { segmentKey: apiKey } },
        ),
    });

    it(`\`pulumi up --debug\` prints no secretConfig value of any type; with the state and the client secret it confirms ${saltPrinted ? "no Password" : "no"} guess`, async () => {
      const up = await e2e.stack.up({ debug: true });
      assert.equal(up.summary.result, "succeeded");
      const printed = `${up.stdout}\n${up.stderr}`;
      assert.match(printed, /RegisterResource RPC finished/, "the SDK's debug lines were printed");
      assertNoValue(
        printed,
        [apiKey, PROGRAM.workspace, "4321", "2019-03-17", "track,identify"],
        "`pulumi up --debug`",
      );
      // The log, the state export (and the backend's files) and the client
      // secret confirm no Password guess, even the right one: a Password has no digest at all.
      const texts = [printed, await e2e.stack.exportText(), await e2e.stack.backendText()];
      const target = { accountId: e2e.svc.accountId, connectorId: SEGMENT };
      const confirms = (field: string, guess: string, by = texts) =>
        confirmsGuess(by, e2e.svc.clientSecret, { ...target, field, guess });
      assert.ok(!confirms("apiKey", apiKey), "the right Password is confirmed offline");
      if (saltPrinted) {
        // The dynamic host without embedded:digestKey (docs/secrets.md): its SDK prints the
        // digestSalt output, so a Text is confirmed; the provider warns, naming the command.
        assert.ok(confirms("workspace", PROGRAM.workspace), "the offline guess procedure confirms nothing at all");
        assert.ok(printed.includes(SET_DIGEST_KEY), `the warning gives the command that sets the key:\n${printed}`);
        logBeforeKey = printed;
        // Set as a secret: the next check (right below) must show no drift, the next writes re-key.
        await e2e.stack.setConfig({}, { "embedded:digestKey": digestKey });
        return;
      }
      // The plugin: its salt is a secret input, never printed, so the right Text is not confirmed either.
      assert.ok(!confirms("workspace", PROGRAM.workspace), "the right Text value is confirmed offline");
      // The procedure itself works: with the stack's secrets decrypted (the salt among them) it confirms it.
      const decrypted = (await e2e.stack.cli(["stack", "export", "--show-secrets"])).stdout;
      assert.ok(confirms("workspace", PROGRAM.workspace, [decrypted]), "the procedure confirms nothing at all");
    });

    it("right after `up`, `preview --refresh --diff` shows no changed property", async () => {
      const preview = await e2e.stack.preview({ refresh: true, diff: true });
      assertQuiet(preview.stdout, "the first drift check");
    });

    for (const { type, field, value, shown } of CHANGES) {
      it(`a ${type} field changed out of band: both drift displays name ${field} alone, with no value; up repairs it`, async () => {
        await e2e.svc.outOfBand.configure(e2e.svc.accountId, SEGMENT, { ...live(), [field]: value });
        for (const [command, run] of [
          ["preview --refresh --diff", () => e2e.stack.preview({ refresh: true, diff: true })],
          ["refresh --diff", () => e2e.stack.cli(["refresh", "--diff", "--yes"])],
        ] as const) {
          const stdout = withoutStackOutputs((await run()).stdout);
          assert.deepEqual(
            fieldsMarkedChanged(stdout, FIELDS),
            [field],
            `${command} names ${field}, and only it:\n${stdout}`,
          );
          assert.match(stdout, new RegExp(`changed out of band at \\S+: ${field}`), `${command} says it in words`);
          assertNoValue(stdout, [...shown, apiKey], command);
          assertSecretConfigKept(stdout, command);
          if (detailedDiff && command.startsWith("preview")) {
            assert.deepEqual(
              fieldsMarkedChanged(updateStepOf(stdout), FIELDS),
              [field],
              `the planned update names ${field}, and only it:\n${stdout}`,
            );
          }
        }
        assert.equal(
          (await e2e.stack.up()).summary.resourceChanges?.update,
          1,
          "up writes the program's configuration back",
        );
      });
    }

    it("a Password changed alone is told in words; after the repair the drift check is quiet again", async () => {
      await e2e.svc.outOfBand.configure(e2e.svc.accountId, SEGMENT, { ...live(), apiKey: "rotated-by-a-colleague" });
      for (const [command, run] of [
        ["preview --refresh --diff", () => e2e.stack.preview({ refresh: true, diff: true })],
        ["refresh --diff", () => e2e.stack.cli(["refresh", "--diff", "--yes"])],
      ] as const) {
        const stdout = withoutStackOutputs((await run()).stdout);
        assert.match(
          stdout,
          /only a Password can differ \(apiKey\), or the same values were written again/,
          `${command}:\n${stdout}`,
        );
        assert.deepEqual(
          fieldsMarkedChanged(stdout, FIELDS),
          ["apiKey"],
          `${command} names the Password field only:\n${stdout}`,
        );
        assertNoValue(stdout, ["rotated-by-a-colleague", apiKey], command);
        assertSecretConfigKept(stdout, command);
        if (detailedDiff && command.startsWith("preview")) {
          assert.deepEqual(
            fieldsMarkedChanged(updateStepOf(stdout), FIELDS),
            ["apiKey"],
            `the planned update writes the Password back:\n${stdout}`,
          );
        }
      }
      assert.equal((await e2e.stack.up()).summary.resourceChanges?.update, 1);
      assertQuiet((await e2e.stack.preview({ refresh: true, diff: true })).stdout, "the drift check after the repair");
    });

    if (saltPrinted) {
      it("with embedded:digestKey set, after the writes above: `up --debug`, the state and the client secret confirm no guess", async () => {
        const up = await e2e.stack.up({ debug: true });
        const printed = `${up.stdout}\n${up.stderr}`;
        assert.match(printed, /RegisterResource RPC finished/, "the SDK's debug lines were printed");
        assert.ok(!printed.includes(SET_DIGEST_KEY), "no warning once the key is set");
        const texts = [printed, await e2e.stack.exportText(), await e2e.stack.backendText({ history: false })];
        assertNoValue(printed, [digestKey, PROGRAM.workspace, apiKey], "`pulumi up --debug`");
        // (The backend's files hold this test program's own plain config, values among them: not the key.)
        assertNoValue(texts.join("\n"), [digestKey], "the log, the export, the backend");
        const configuration = (await e2e.stack.resources()).find((r) => r.type.endsWith("ConnectorConfiguration"));
        assert.equal(configuration?.outputs?.digestRecipe, "salt+digestKey", "the writes re-keyed the digests");
        const target = { accountId: e2e.svc.accountId, connectorId: SEGMENT, field: "workspace" };
        const confirms = (by: string[], keys: string[] = []) =>
          confirmsGuess(by, e2e.svc.clientSecret, { ...target, guess: PROGRAM.workspace }, keys);
        assert.ok(!confirms(texts), "the right Text is confirmed offline");
        // The procedure itself works: given the key too, it confirms the right Text.
        assert.ok(confirms(texts, [digestKey]), "the procedure confirms nothing at all");
        // The first keyed write drew a new salt: the checkpoints written before the key (history,
        // backups) and this log confirm nothing either; only with a log printed before the key
        // (its salt) do they confirm an unchanged value (docs/secrets.md says so).
        const everything = [printed, await e2e.stack.backendText()];
        assert.ok(!confirms(everything), "the earlier checkpoints and a later log confirm the right Text");
        assert.ok(confirms([logBeforeKey, ...everything]), "the earlier checkpoints confirm nothing at all");
      });
    }

    // README's drift story, with the local service's web page as "the service's UI".
    // One host is enough (the page writes to the service, not to the provider): the plugin's.
    if (detailedDiff) {
      it("a Text and a Password changed in the web page: README's drift check fails naming the Text, with no value", async function () {
        const why = noBrowser();
        if (why) return this.skip();
        const byHand = { workspace: `page-${randomBytes(5).toString("hex")}`, apiKey: "typed-in-the-page" };
        const ui = await openUi(`${e2e.svc.baseUrl}/ui#key=${e2e.svc.service.adminKey}`);
        try {
          const status = await saveFields(ui.page, e2e.svc.accountId, SEGMENT, byHand);
          assert.match(status, /saved apiKey, workspace/);
        } finally {
          await ui.close();
        }
        // `pulumi preview --refresh --expect-no-changes --diff`, README's drift check.
        const check = () => e2e.stack.preview({ refresh: true, expectNoChanges: true, diff: true });
        const text = withoutStackOutputs(await e2e.stack.expectFailure(check));
        assert.match(text, /no changes were expected for preview but changes were proposed/);
        assert.match(text, /changed out of band at \S+: [^"\n]*\bworkspace\b/, `it names the Text:\n${text}`);
        assertNoValue(text, [byHand.workspace, byHand.apiKey, PROGRAM.workspace, apiKey], "the drift check");
        assert.equal(
          (await e2e.stack.up({ refresh: true })).summary.resourceChanges?.update,
          1,
          "up --refresh repairs",
        );
        await check();
      });
    }
  });
}
