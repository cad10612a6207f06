// A Configure that fails with a service
// error, after sending a Password canary and a Text canary large enough (> 32.7 KB) to have
// broken the old RegExp-based scrubbing, prints neither canary, and neither reaches the state.
// The Text canary comes from an environment variable (program config is an environment
// variable too, and both are capped at 128 KiB by Linux), so the error is an injected 503 on
// the configuration PUT, answered every time: the client retries it, then the step fails.
// Then, on the same stack, a refusal inside a 200 (the hosted service's
// convention) whose text quotes both canaries upper-cased, truncated, base64, … (the local
// service's quoteBack fault): no form of either anywhere. Canaries: CANARY_SEED replays.
import { strict as assert } from "node:assert";
import { canary as seeded, quotedTelltales, replayCanariesOnFailure } from "./canaries";
import { assertNoSecret, E2EStack, ENGINE_TIMEOUT_MS, type ProgramConfigValue } from "./harness";
import { apiKeyFields, e2eSuite, SEGMENT, serviceSettings } from "./fixtures";
import { CONFIGURE_ROUTE, engineFailure, pluginStack } from "./plugin-fixtures";

const TEXT_SIZE = 60_000;

function canary(label: string, size = 0): string {
  const head = `${seeded(`error-secrets-${label}`)}-`;
  return head + "x".repeat(Math.max(0, size - head.length));
}

describe("e2e: secrets in the error of a failed Configure (both hosts)", function () {
  this.timeout(ENGINE_TIMEOUT_MS);
  const e2e = e2eSuite();
  replayCanariesOnFailure();

  type Config = Record<string, ProgramConfigValue>;
  const hosts: [
    string,
    (name: string, options: { config: Config; secretConfig: Config; env: Record<string, string> }) => Promise<E2EStack>,
  ][] = [
    [
      "dynamic ConnectorConfiguration",
      (name, { config, secretConfig, env }) =>
        E2EStack.create({
          program: "connectors",
          name,
          service: serviceSettings(e2e.svc),
          config,
          secretConfig,
          env,
        }),
    ],
    [
      "plugin ConnectorConfiguration",
      (name, { config, secretConfig, env }) => pluginStack(e2e.svc, name, { config, secretConfig, env }),
    ],
  ];

  for (const [host, create] of hosts) {
    it(`${host}: a 503 on Configure after a Password and a ${TEXT_SIZE / 1000} KB Text, then a refusal in a 200 quoting both in other forms: up fails, no canary in any form in the output or the state`, async () => {
      const password = canary("password");
      const text = canary("text", TEXT_SIZE);
      const stack = await create("error-secrets", {
        config: {
          connectors: [{ key: "segment", connectorId: SEGMENT }],
          configurations: [
            {
              key: "segmentConfig",
              connectorId: SEGMENT,
              after: "segment",
              secretConfig: apiKeyFields(),
              secretRefs: { apiKey: "password" },
              envRefs: { workspace: "E2E_LARGE_TEXT" },
            },
          ],
        },
        secretConfig: { secretValues: { password } },
        env: { E2E_LARGE_TEXT: text },
      });
      try {
        await e2e.svc.service.reset();
        await e2e.svc.service.setFaults({ rules: [{ route: CONFIGURE_ROUTE, mode: "error", status: 503 }] });
        const failure = await engineFailure(() => stack.up());
        const exported = await stack.exportText();
        for (const [label, value] of [
          ["Password", password],
          ["Text", text.slice(0, 40)],
        ] as const) {
          assertNoSecret(failure.printed, value, `the failed up's output (${label} canary)`);
          assertNoSecret(stack.engineOutput(), value, `the engine's output (${label} canary)`);
          assertNoSecret(exported, value, `pulumi stack export (${label} canary)`);
        }
        assert.match(failure.printed, /segmentConfig/, "the engine output was captured");
        // Configure carried secret values: the status and request id reach the user, never the
        // service's own text.
        assert.match(failure.printed, /\b503\b/, "the service's status reaches the user");
        assert.match(failure.printed, /the service's text is left out/, "the user is told why the text is missing");
        assert.doesNotMatch(failure.printed, /service unavailable \(injected\)/, "the service's own text is left out");
        assert.match(failure.printed, /request id [0-9a-f-]{36}/, "with its request id");
        const stats = (await e2e.svc.service.stats()).byRoute[CONFIGURE_ROUTE] ?? {};
        assert.ok((stats["503"] ?? 0) > 1, `the 503 was retried: ${JSON.stringify(stats)}`);

        // The same Configure refused inside a 200, its text quoting both values in six forms.
        await e2e.svc.service.setFaults({ rules: [{ route: CONFIGURE_ROUTE, mode: "quoteBack", inBody: true }] });
        const refused = await engineFailure(() => stack.up());
        const outputs: [string, string][] = [
          ["the refused up's output", refused.printed],
          ["the engine's output", stack.engineOutput()],
          ["pulumi stack export", await stack.exportText()],
        ];
        for (const [label, value] of [
          ["Password", password],
          ["Text", text],
        ] as const) {
          for (const { form, telltale } of quotedTelltales(value)) {
            for (const [where, shown] of outputs) assertNoSecret(shown, telltale, `${where} (${label}, ${form})`);
          }
        }
        assert.ok(/\b400 Bad Request\b/.test(refused.printed), "the refusal's status reaches the user");
        assert.ok(/fields [^;]*secretConfig\.apiKey/.test(refused.printed), "with the refused field's name");
        assert.ok(/the service's text is left out/.test(refused.printed), "and why the service's text is missing");
        assert.equal((await e2e.svc.service.stats()).byRoute[CONFIGURE_ROUTE]?.["200"], 1, "one refusal, in a 200");
      } finally {
        await e2e.svc.service.setFaults({ rules: [] });
        await stack.dispose();
      }
    });
  }
});
