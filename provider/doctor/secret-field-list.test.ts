// doctor lists, per added connector it read, the fields the provider treats as secret and why:
// against a service that spells the Password type `password` and masks it (the local service's
// consolePasswords), and a type only a profile makes secret. Ids and reasons, never a value.
import assert from "node:assert/strict";
import { doctor } from "./command";
import { secretFieldLines, secretFieldsOf } from "./secret-field-list";
import { EmbeddedClient } from "../client";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { CATALOGUE } from "../../service/seed/catalogue";
import type { WireAnswer } from "./wire-client";

const idOf = (name: string) => CATALOGUE.find((c) => c.name === name)?.connectorId as string;
const S3 = idOf("Amazon S3");
const SEGMENT = idOf("Segment");
const MIXPANEL = idOf("Mixpanel");
const KEY = "real-key-never-printed-5e1d";

describe("doctor: the secret fields, per connector, and why", function () {
  this.timeout(60_000);
  let service: LocalService;
  before(async () => {
    service = await startLocalService({ consolePasswords: true });
    const { clientId, clientSecret, subAccountIds } = service.customers[0];
    const client = EmbeddedClient.create({ baseUrl: service.baseUrl, clientId, clientSecret });
    await client.addConnectors(subAccountIds[0], [S3, SEGMENT, MIXPANEL]);
    const configurationId = (await client.getConfiguration(subAccountIds[0], S3)).secretConfig[0].configurationId;
    await client.configure(subAccountIds[0], S3, {
      configurationId,
      secretConfig: { bucket: "b", accessKeyId: "AKIA", secretAccessKey: KEY, region: "eu-west-1" },
    });
  });
  after(() => service?.stop());

  it("names each connector read and its secret fields with the rule's reason; no value", async () => {
    let text = "";
    const { clientId, clientSecret, subAccountIds } = service.customers[0];
    const flags = { baseUrl: service.baseUrl, clientId, clientSecret, accountId: subAccountIds[0] };
    await doctor({ ...flags, stack: false, pulumi: "pulumi" }, (t) => (text += t));
    const start = text.indexOf("secret fields, never taken as values");
    assert.ok(start > 0, text);
    const block = text.slice(start).split("\n").slice(0, 4);
    const password = 'type "password" (password, in any letter case)';
    assert.deepEqual(
      block.slice(1).sort(),
      [
        `  connector ${MIXPANEL}: apiKey: ${password}`,
        `  connector ${S3}: secretAccessKey: ${password}`,
        `  connector ${SEGMENT}: apiKey: ${password}`,
      ].sort(),
    );
    assert.ok(!text.includes(KEY) && !text.includes("********"), "no value, not even the mask");
  });

  it("a type the profile adds, a masked value, a refused read, and none added", () => {
    const answer = (configuration: unknown[], status = 200): WireAnswer =>
      ({ status, body: { statusCode: status, statusMessage: "ok", response: { configuration } } }) as WireAnswer;
    const profile = { semantics: { secretFieldTypes: ["Credential"] } };
    const fields = [
      { id: "token", type: "credential" },
      { id: "hint", type: "Text", value: "••••1234" },
      { id: "bucket", type: "Text", value: "b" },
    ];
    assert.deepEqual(
      secretFieldLines([secretFieldsOf("c1", answer(fields), profile), secretFieldsOf("c2", answer([], 404), profile)]),
      [
        "secret fields, never taken as values (docs/secrets.md#what-is-a-secret-field):",
        '  connector c1: token: type "credential" (the service profile\'s semantics.secretFieldTypes); hint: type "Text", but its value is masked',
        "  connector c2: not read (Get Configuration answered 404)",
      ],
    );
    assert.deepEqual(secretFieldLines([]).slice(1), ["  none read: no connector is added to this sub-account"]);
  });
});
