// What the engine prints of the dynamic host's check failures (the plugin's: provider/hosts/plugin/engine-printed.test.ts):
// the engine prints a check failure as `property <name> value <value> has a problem: <reason>`,
// with the input's plaintext; so a failure about an input the program made secret (named in the
// hidden input SECRET_INPUTS), or secret by definition (secretConfig), leaves `property` empty and
// names the input in its reason; and a secret accountId or connectorId is refused.
import assert from "node:assert/strict";
import * as addedConnector from "../../added-connector/steps";
import * as connectorConfiguration from "../../connector-configuration/steps";
import { SECRET_INPUTS } from "../../schema/checks";
import { CONNECTORS, SEGMENT_CONFIG, useProviderFixture } from "../../../test/support/provider-fixtures";

const CANARY = `canary-dynamic-check-${process.pid}`;

describe("dynamic provider: check failures the engine prints", () => {
  const fx = useProviderFixture();
  const configuration = (given: Record<string, unknown>, secret: string[]) =>
    connectorConfiguration.check(
      {},
      {
        connectorId: CONNECTORS.segment,
        secretConfig: SEGMENT_CONFIG,
        ...given,
        __provider: "p",
        [SECRET_INPUTS]: secret,
      },
    );

  it("a failure about a secret input has no property, names the input, and quotes no value", async () => {
    const cases: [string, Promise<{ failures?: { property: string; reason: string }[] }>, string, RegExp][] = [
      [
        "secretConfig as a secret string",
        configuration({ secretConfig: CANARY }, ["secretConfig"]),
        "secretConfig",
        /^secretConfig must be an object/,
      ],
      [
        "a secret name of the wrong type",
        configuration({ name: 42 }, ["secretConfig", "name"]),
        "name",
        /^name must be a string/,
      ],
      [
        "a secret secretName of the wrong type",
        configuration({ secretName: [CANARY] }, ["secretConfig", "secretName"]),
        "secretName",
        /^secretName must be a string/,
      ],
      [
        "a secret adoptExisting of the wrong type",
        addedConnector.check(
          {},
          {
            connectorId: CONNECTORS.segment,
            adoptExisting: CANARY,
            __provider: "p",
            [SECRET_INPUTS]: ["adoptExisting"],
          },
        ),
        "adoptExisting",
        /^adoptExisting must be a boolean/,
      ],
    ];
    for (const [what, result, name, reason] of cases) {
      const failures = (await result).failures ?? [];
      assert.ok(!failures.some((f) => f.property === name), `${what}: the engine would print the value`);
      assert.ok(
        failures.some((f) => f.property === "" && reason.test(f.reason)),
        `${what}: ${JSON.stringify(failures)}`,
      );
      assert.ok(!JSON.stringify(failures).includes(CANARY), `${what}: the value is quoted`);
    }
    // Plain and not secret by definition: the property stays, so the engine points at it.
    const plain = await configuration({ name: 42 }, ["secretConfig"]);
    assert.deepEqual(
      plain.failures?.map((f) => f.property),
      ["name"],
    );
  });

  it("a secret accountId or connectorId is refused before the service is asked", async () => {
    const before = await fx.service.stats();
    for (const [check, extra] of [
      [addedConnector.check, {}],
      [connectorConfiguration.check, { secretConfig: SEGMENT_CONFIG }],
    ] as const) {
      for (const name of ["accountId", "connectorId"]) {
        const result = await check(
          {},
          {
            ...extra,
            connectorId: CONNECTORS.segment,
            accountId: fx.otherAccountId,
            __provider: "p",
            [SECRET_INPUTS]: [name],
          },
        );
        assert.deepEqual(
          result.failures?.map((f) => f.property),
          [""],
        );
        assert.match(
          result.failures?.[0]?.reason ?? "",
          new RegExp(`^${name} is a secret, but it is part of the resource's id`),
        );
        assert.ok(!JSON.stringify(result.failures).includes(fx.otherAccountId));
      }
    }
    assert.deepEqual((await fx.service.stats()).byRoute, before.byRoute);
  });
});
