// A secret the stack does not hold is never cleared. A customer set the
// Segment connector's API key (a Password) in the service's UI; the platform team's stack
// declares the other fields and leaves `apiKey` to the service (`heldByService`). On a service
// whose Configure replaces the whole configuration (the contract's), every write would clear
// that key: it is refused at preview (check, diff) and at the write, and nothing is sent. On a
// service that keeps the fields a Configure leaves out (profile `configureWrites: given`), the
// stack writes its own fields and the customer's key stays, as the service's database shows.
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { DEFAULT_PROFILE } from "../../contract/profile";
import { SECRET_INPUTS } from "../schema/checks";
import { getClient, type EmbeddedClient } from "../client";
import * as impl from "./steps";
import { configSourceFromGetter, resolveSettings, toClientSettings } from "../settings/resolve";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { assertNoCanary } from "../../test/e2e/canaries";
import {
  CONNECTORS,
  callsTo,
  rejection,
  SEGMENT_CONFIG,
  useConfig,
  type ProviderFixture,
} from "../../test/support/provider-fixtures";

type Props = Record<string, unknown>;
const CONFIGURE = "PUT /es/v2/connectors/:connectorId/configuration";
const { apiKey: _stackKey, ...OWN_FIELDS } = SEGMENT_CONFIG;

interface Served {
  fx: ProviderFixture;
  dbPath: string;
  dir: string;
}

/** A local service (with its database in a file the test reads), the provider runtime pointed at it. */
async function serve(configureWrites: "whole" | "given"): Promise<Served> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "held-passwords-"));
  const dbPath = path.join(dir, "service.db");
  const profile = { ...DEFAULT_PROFILE, semantics: { ...DEFAULT_PROFILE.semantics, configureWrites } };
  const service: LocalService = await startLocalService({ dbPath, profile });
  const profileFile = path.join(dir, "profile.yaml");
  await fs.writeFile(profileFile, `semantics:\n  configureWrites: ${configureWrites}\n`);
  const customer = service.customers[0];
  const config: Record<string, string | undefined> = {
    "embedded:baseUrl": service.baseUrl,
    "embedded:clientId": customer.clientId,
    "embedded:clientSecret": customer.clientSecret,
    "embedded:accountId": customer.subAccountIds[0],
    "embedded:serviceProfile": profileFile,
  };
  const source = configSourceFromGetter({ get: (key) => config[key] });
  const client: EmbeddedClient = getClient(toClientSettings(resolveSettings(source)));
  const fx: ProviderFixture = {
    service,
    accountId: customer.subAccountIds[0],
    otherAccountId: customer.subAccountIds[1],
    client,
    config,
  };
  return { fx, dbPath, dir };
}

/** What the service's database holds for the connector's API key (a hash of it, as it stores Passwords). */
function storedApiKey(dbPath: string, accountId: string): string | undefined {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare("SELECT secret_values FROM added_connectors WHERE account_id = ? AND connector_id = ?")
      .get(accountId, CONNECTORS.segment) as { secret_values: string } | undefined;
    return row ? (JSON.parse(row.secret_values) as Record<string, string>).apiKey : undefined;
  } finally {
    db.close();
  }
}

const hashOf = (value: string) => `sha256:${createHash("sha256").update(value).digest("hex")}`;

function useHeldFixture(configureWrites: "whole" | "given"): Served & { customerKey: string } {
  const s = {} as Served & { customerKey: string };
  before(async () => Object.assign(s, await serve(configureWrites)));
  after(async () => {
    await s.fx.service.stop();
    await fs.rm(s.dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await s.fx.service.reset();
    useConfig(s.fx);
    // The customer adds and configures the connector in the service's UI, their own key included.
    s.customerKey = `customer-key-${randomBytes(6).toString("hex")}`;
    await s.fx.client.addConnectors(s.fx.accountId, [CONNECTORS.segment]);
    await s.fx.client.configure(s.fx.accountId, CONNECTORS.segment, {
      configurationId: (await s.fx.client.getConfiguration(s.fx.accountId, CONNECTORS.segment)).secretConfig[0]
        .configurationId,
      secretConfig: { ...OWN_FIELDS, apiKey: s.customerKey },
    });
  });
  return s;
}

const inputs = (fx: ProviderFixture, secretConfig: Props = OWN_FIELDS, extra: Props = {}): Props => ({
  connectorId: CONNECTORS.segment,
  accountId: fx.accountId,
  secretConfig,
  heldByService: ["apiKey"],
  adoptExisting: true,
  ...extra,
});

describe("ConnectorConfiguration: Passwords the service holds, where Configure replaces the whole", () => {
  const s = useHeldFixture("whole");

  it("a create is refused at preview and at the write, naming the held field and what to set; nothing is sent", async () => {
    const before = await s.fx.client.getConfiguration(s.fx.accountId, CONNECTORS.segment);
    const checked = await impl.check({}, inputs(s.fx));
    const refusal = checked.failures?.find((f) => f.property === "heldByService");
    assert.ok(refusal, `check refuses it: ${JSON.stringify(checked.failures)}`);
    assert.match(refusal.reason, /would clear the Password fields the service holds \(heldByService: apiKey\)/);
    assert.match(refusal.reason, /semantics\.configureWrites: whole/);
    assert.match(refusal.reason, /give them in secretConfig/);
    const error = await rejection(impl.create(inputs(s.fx)));
    assert.match(error.message, /creating the configuration of connector \w+ of sub-account \S+ would clear/);
    assert.equal(callsTo(await s.fx.service.stats(), CONFIGURE), 1, "only the customer's own Configure");
    const after = await s.fx.client.getConfiguration(s.fx.accountId, CONNECTORS.segment);
    assert.equal(after.lastUpdated, before.lastUpdated, "the configuration was not written");
    assert.equal(storedApiKey(s.dbPath, s.fx.accountId), hashOf(s.customerKey), "the customer's key is kept");
  });

  it("a held field must be a Password of the connector, and not also given a value", async () => {
    const checked = await impl.check(
      {},
      inputs(s.fx, { ...OWN_FIELDS, apiKey: "x" }, { heldByService: ["apiKey", "workspace"] }),
    );
    const reasons = (checked.failures ?? []).filter((f) => f.property === "heldByService").map((f) => f.reason);
    assert.ok(
      reasons.some((r) =>
        /field "workspace" is not a Password field of connector \w+; .*its Password fields are: apiKey/.test(r),
      ),
      reasons.join("\n"),
    );
    assert.ok(
      reasons.some((r) => /field "apiKey" is both in secretConfig and in heldByService/.test(r)),
      reasons.join("\n"),
    );
    assert.ok(
      reasons.every((r) => !r.includes('"x"')),
      "no value quoted",
    );
  });

  it("a secret heldByService: no failure quotes a field it lists, nor names it as its property", async () => {
    // The program made the list secret (heldByService: pulumi.secret([...])); the engine prints a
    // failure's property with its value, so the list may show in neither place, on either host.
    const typo = `apiKy-${randomBytes(4).toString("hex")}`;
    for (const held of [[typo], ["apiKey", typo]]) {
      const checked = await impl.check(
        {},
        inputs(s.fx, OWN_FIELDS, { heldByService: held, [SECRET_INPUTS]: ["heldByService"] }),
      );
      const failures = checked.failures ?? [];
      assert.ok(
        failures.some((f) => /^heldByService: field .* is not a Password field/.test(f.reason)),
        JSON.stringify(failures),
      );
      assert.ok(!failures.some((f) => f.property === "heldByService"), JSON.stringify(failures));
      assertNoCanary(JSON.stringify(failures), typo, "a secret heldByService's check failures");
    }
  });

  it("a held Password's required rule is the service's: no 'is required' failure for it", async () => {
    const checked = await impl.check({}, inputs(s.fx));
    assert.ok(
      !(checked.failures ?? []).some((f) => f.property === "secretConfig.apiKey"),
      JSON.stringify(checked.failures),
    );
  });
});

describe("ConnectorConfiguration: Passwords the service holds, where Configure keeps what it leaves out", () => {
  const s = useHeldFixture("given");

  it("the stack writes its own fields; the customer's key stays; drift covers the rest; a key change shows once", async () => {
    const checked = await impl.check({}, inputs(s.fx));
    assert.deepEqual(checked.failures ?? [], []);
    const { id, outs } = await impl.create(checked.inputs as Props);
    assert.equal(storedApiKey(s.dbPath, s.fx.accountId), hashOf(s.customerKey), "the customer's key is kept");
    const news = checked.inputs as Props;
    // No change, no write.
    let read = await impl.read(id, outs as Props);
    assert.equal((await impl.diff(id, read.props as Props, news)).changes, false);
    // Out of band, a field of the stack's: named, and the update writes it back, the key kept.
    const configurationId = (outs as Props).configurationId as string;
    await s.fx.client.configure(s.fx.accountId, CONNECTORS.segment, {
      configurationId,
      secretConfig: { ...OWN_FIELDS, workspace: "changed-by-hand", apiKey: s.customerKey },
    });
    read = await impl.read(id, read.props as Props);
    const drifted = await impl.diff(id, read.props as Props, news);
    assert.ok(drifted.detailedDiff["secretConfig.workspace"], JSON.stringify(drifted.detailedDiff));
    const updated = await impl.update(id, read.props as Props, news);
    assert.equal(storedApiKey(s.dbPath, s.fx.accountId), hashOf(s.customerKey), "the customer's key is kept");
    // The customer rotates their key: it shows through lastUpdated and drift, and nothing is restored.
    const rotated = `rotated-${randomBytes(6).toString("hex")}`;
    await s.fx.client.configure(s.fx.accountId, CONNECTORS.segment, {
      configurationId,
      secretConfig: { ...OWN_FIELDS, apiKey: rotated },
    });
    read = await impl.read(id, updated.outs as Props);
    assert.notEqual((read.props as Props).lastUpdated, (read.props as Props).appliedLastUpdated);
    assert.match(String((read.props as Props).drift), /changed out of band at/);
    assert.equal((await impl.diff(id, read.props as Props, news)).changes, false, "their key: nothing to restore");
    assert.equal(storedApiKey(s.dbPath, s.fx.accountId), hashOf(rotated));
  });
});

describe("ConnectorConfiguration: a held Password and a write to restore, where Configure replaces the whole", () => {
  const s = useHeldFixture("whole");

  it("restoring a field changed out of band is refused at preview (diff), naming the held field", async () => {
    // The stack's state as an adoption leaves it: the service's values, no write of ours since.
    const imported = await impl.importExisting(`${s.fx.accountId}/${CONNECTORS.segment}`);
    const news = { ...inputs(s.fx), configurationId: imported.props.configurationId };
    const checked = await impl.check({ ...news }, news);
    assert.deepEqual(checked.failures ?? [], [], "no write: no refusal");
    await s.fx.client.configure(s.fx.accountId, CONNECTORS.segment, {
      configurationId: imported.props.configurationId as string,
      secretConfig: { ...OWN_FIELDS, workspace: "changed-by-hand", apiKey: s.customerKey },
    });
    const read = await impl.read(imported.id, imported.props);
    const error = await rejection(impl.diff(imported.id, read.props as Props, checked.inputs as Props));
    assert.match(error.message, /writing the configuration of connector \w+ of sub-account \S+ would clear .*apiKey/);
    assert.equal(storedApiKey(s.dbPath, s.fx.accountId), hashOf(s.customerKey));
  });
});
