// The failure paths of the secrets suite (secrets.test.ts, the leak matrix), run on each
// host's stack after its update: check (secretConfig given as a secret string, a secret
// accountId; the plugin: an explicit provider whose clientSecret is a number, so its CheckConfig
// fails), then an update, a read (refresh) and a delete (destroy) that the service fails with
// injected 503s. Each run must fail naming what failed; the suite then scans everything the
// engine printed for the canaries, these failures' own included.
import { strict as assert } from "node:assert";
import { assertNoCanary, canary } from "./canaries";
import { apiKeyFields, S3, SEGMENT, type E2EService } from "./fixtures";
import type { E2EStack } from "./harness";
import { routeKey } from "../../contract/routes";
import { plainSecretMessage } from "../../provider/settings/plain-secrets";
import type { SecretsStack } from "./secrets-hosts";

const wholeSecret = canary("whole-secret-config");
const secretAccount = canary("secret-account-id");
/** A lookup's name given as a secret, and an explicit provider's baseUrl given as one (the plugin). */
const secretLookupName = `Amazon S3 ${canary("secret-lookup-name")}`;
export const SECRET_BASE_URL = `ftp://${canary("secret-base-url")}.example.com/api`;
/** A client secret set without --secret (not the service's: the run fails before using it). */
const plainClientSecret = canary("plain-client-secret");

/** secretConfig as one string (a failure path's trigger): the stacks' environment holds it. */
export const WHOLE_SECRET_CONFIG = JSON.stringify({ secretAccessKey: wholeSecret });

/** The canaries only the failure paths use. */
export const FAILURE_CANARIES: [string, string][] = [
  ["secretConfig given as a secret string", wholeSecret],
  ["a secret accountId", secretAccount],
  ["a lookup's name given as a secret", secretLookupName],
  ["an explicit provider's baseUrl given as a secret", SECRET_BASE_URL],
  ["a client secret set without --secret", plainClientSecret],
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
  // check: a preview per trigger (the engine stops at the first failed check).
  const triggers: [object, Record<string, string>, RegExp][] = [
    [
      { key: "badWhole", connectorId: S3, secretConfig: {}, secretConfigEnv: "E2E_WHOLE_SECRET_CONFIG" },
      {},
      /resource 'badWhole' has a problem: secretConfig must be an object/,
    ],
    [
      { key: "badAccount", connectorId: SEGMENT, secretConfig: apiKeyFields(), accountIdRef: "secretAccount" },
      { secretAccount },
      /resource 'badAccount' has a problem: accountId is a secret, but it is part of the resource's id/,
    ],
  ];
  for (const [configuration, secretConfig, refusal] of triggers) {
    await stack.setConfig({ configurations: [...updated, configuration] }, secretConfig);
    const checked = await stack.expectFailure((s) => s.preview({ diff: true, debug: true }));
    // assert.ok, not assert.match: a failed match would print the text, and a leak with it.
    assert.ok(refusal.test(checked), `the engine printed no ${refusal} (${checked.length} characters)`);
    assert.ok(!/property (secretConfig|accountId) value/.test(checked), "a secret input's value is printed");
  }
  await stack.setConfig({ configurations: updated });
  // CheckConfig (the plugin): its own preview, since a provider that fails stops the run.
  if (made.badProvider) {
    await stack.setConfig(made.badProvider.config, made.badProvider.secretConfig);
    const config = await stack.expectFailure((s) => s.preview({ diff: true, debug: true }));
    assert.ok(/resource 'bad' has a problem: clientSecret must be a string/.test(config), "CheckConfig's failure");
    // An argument the program made secret arrives plain in CheckConfig; its
    // failure names it, without a property (the engine would print the value beside it).
    assert.ok(/resource 'bad' has a problem: baseUrl: invalid embedded:baseUrl/.test(config), "baseUrl's failure");
    assert.ok(!/property \w+ value/.test(config), "a provider argument's value is printed");
    await stack.setConfig(made.initial.config, made.initial.secretConfig);
    await stack.setConfig({ configurations: updated });
  }
  await secretLookupRefused(stack, made);
  await forgottenSecretsRefused(stack, svc, made);
  await stack.setConfig({ configurations: updated });

  // create/update: the configuration PUT fails (back to the first Password: an update).
  await stack.setConfig({ configurations: made.initial.config.configurations });
  const update = await withFault(svc, "configure", () => stack.expectFailure((s) => s.up({ diff: true, debug: true })));
  assert.ok(/segmentConfig/.test(update) && /503/.test(update), "the service's failure reaches the user");
  // read: a refresh whose configuration reads fail.
  const read = await withFault(svc, "getConfiguration", () => stack.expectFailure((s) => s.refresh({ debug: true })));
  assert.ok(/503/.test(read), "the refresh's failure reaches the user");
  // delete: the connectors' Remove fails (--json); the suite's destroy then finishes.
  const before = stack.engineOutput().length;
  await withFault(svc, "removeConnector", () =>
    stack.expectFailure((s) => s.cli(["destroy", "--yes", "--json", "--debug"])),
  );
  assert.ok(/503/.test(stack.engineOutput().slice(before)), "the destroy's failure reaches the user");
}

/** A lookup whose name is a secret: its refusal names the argument, never the value. */
async function secretLookupRefused(stack: E2EStack, made: SecretsStack): Promise<void> {
  const connectors = [
    ...((made.initial.config.connectors as object[]) ?? []),
    { key: "secretLookup", find: { nameRef: "lookupName", supportedType: "Source" } },
  ];
  const secretValues = { ...(made.initial.secretConfig.secretValues as object), lookupName: secretLookupName };
  await stack.setConfig({ connectors }, { secretValues });
  // Not --debug: the Node.js SDK prints every Invoke's arguments under it, secrets included
  // (its `Invoke RPC prepared … obj=` line; docs/secrets.md, "Limits that come from Pulumi itself").
  const refused = await stack.expectFailure((s) => s.preview({ diff: true }));
  assert.ok(
    /no connector named \(the secret argument name\) with supportedType Source/.test(refused),
    `the lookup's refusal (${refused.length} characters)`,
  );
  await stack.setConfig(made.initial.config, made.initial.secretConfig);
}

/**
 * The default sub-account set with --secret, and the client secret without:
 * the preview warns with the command that encrypts the client secret, and refuses the secret id.
 */
async function forgottenSecretsRefused(stack: E2EStack, svc: E2EService, made: SecretsStack): Promise<void> {
  try {
    await stack.cli(["config", "set", "--secret", "embedded:accountId", svc.accountId]);
    // --plaintext: the CLI itself refuses a value that looks like a secret without --secret or it.
    await stack.cli(["config", "set", "--plaintext", "embedded:clientSecret", plainClientSecret]);
    const forgot = await stack.expectFailure((s) => s.preview({ diff: true }));
    // The one judgement's words (provider/settings/plain-secrets.ts), the stack named.
    assert.ok(
      forgot.includes(plainSecretMessage("clientSecret", { kind: "stack file", stack: stack.stack.name })),
      "the plain client secret's warning",
    );
    assert.ok(/accountId is a secret, but it is/.test(forgot), "the secret default accountId's refusal");
    assertNoCanary(forgot, plainClientSecret, "the preview of a stack whose client secret is in plain text");
  } finally {
    await stack.setConfig(made.initial.config, made.initial.secretConfig); // embedded:* as they were
  }
}
