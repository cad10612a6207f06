// The failure paths of the secrets suite (secrets.test.ts, issue 31's leak matrix), run on each
// host's stack after its update: check (secretConfig given as a secret string, a secret
// accountId; the plugin: an explicit provider whose clientSecret is a number, so its CheckConfig
// fails), then an update, a read (refresh) and a delete (destroy) that the service fails with
// injected 503s. Each run must fail naming what failed; the suite then scans everything the
// engine printed for the canaries, these failures' own included.
import { strict as assert } from "node:assert";
import { canary } from "./canaries";
import { apiKeyFields, S3, SEGMENT, type E2EService } from "./fixtures";
import type { E2EStack } from "./harness";
import { routeKey } from "../../contract/routes";
import type { SecretsStack } from "./secrets-hosts";

const wholeSecret = canary("whole-secret-config");
const secretAccount = canary("secret-account-id");

/** The canaries only the failure paths use. */
export const FAILURE_CANARIES: [string, string][] = [
  ["secretConfig given as a secret string", wholeSecret],
  ["a secret accountId", secretAccount],
];

async function withFault<T>(svc: E2EService, operation: Parameters<typeof routeKey>[0], run: () => Promise<T>) {
  await svc.service.setFaults({ rules: [{ route: routeKey(operation), mode: "error", status: 503 }] });
  try {
    return await run();
  } finally {
    await svc.service.setFaults({ rules: [] });
  }
}

export async function runFailurePaths(stack: E2EStack, svc: E2EService, made: SecretsStack): Promise<void> {
  const updated = made.update.configurations as object[];
  // check and CheckConfig: one preview, every trigger at once.
  await stack.setConfig(
    {
      ...made.initial.config,
      ...made.badProvider?.config,
      configurations: [
        ...updated,
        { key: "badWhole", connectorId: S3, secretConfig: {}, secretConfigRef: "wholeSecret" },
        { key: "badAccount", connectorId: SEGMENT, secretConfig: apiKeyFields(), accountIdRef: "secretAccount" },
      ],
    },
    {
      ...made.initial.secretConfig,
      ...made.badProvider?.secretConfig,
      wholeSecret: JSON.stringify({ secretAccessKey: wholeSecret }),
      secretAccount,
    },
  );
  const checked = await stack.expectFailure((s) => s.preview({ diff: true, debug: true }));
  assert.match(checked, /badWhole.*secretConfig must be an object/, "the secret-string secretConfig is refused");
  assert.match(checked, /badAccount.*accountId is a secret, but it is part of the resource's id/);
  assert.doesNotMatch(checked, /property (secretConfig|accountId|clientSecret) value/, "a secret input's value");
  if (made.badProvider) assert.match(checked, /clientSecret must be a string/, "the provider's CheckConfig failed");
  await stack.setConfig({ ...made.initial.config, configurations: updated }, made.initial.secretConfig);

  // create/update: the configuration PUT fails (back to the first Password: an update).
  const update = await withFault(svc, "configure", () => stack.expectFailure((s) => s.up({ diff: true, debug: true })));
  assert.match(update, /segmentConfig/);
  assert.match(update, /503/, "the service's failure reaches the user");
  // read: a refresh whose configuration reads fail.
  const read = await withFault(svc, "getConfiguration", () => stack.expectFailure((s) => s.refresh({ debug: true })));
  assert.match(read, /503/);
  // delete: the connectors' Remove fails (--json); the suite's destroy then finishes.
  const before = stack.engineOutput().length;
  await withFault(svc, "removeConnector", () =>
    stack.expectFailure((s) => s.cli(["destroy", "--yes", "--json", "--debug"])),
  );
  assert.match(stack.engineOutput().slice(before), /503/);
}
