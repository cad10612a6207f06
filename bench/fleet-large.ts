// The 1,000-stack fleet of `npm run bench:fleet` (--large), made without 1,000 engine runs:
// each stack's sub-account gets the connectors of a template stack (one that `fleet up`
// applied, one per customer) through the service's own API, and the stack's checkpoint is the
// template's with the sub-account's ids, the service's lastUpdated and the digests of the
// same values under the customer's key, what `fleet up` would have written. Its stack file is
// the template's (same encryption salt) with the sub-account's id.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { getClient } from "../provider/client";
import { digestKeyOf, digestsOfInputs, hiddenFields } from "../provider/resources/field-digests";
import { passphraseDecrypter } from "../cli/fleet/drift/passphrase";
import type { LocalService } from "../harness/local-service";

type Props = Record<string, unknown>;
interface StateResource {
  urn: string;
  type: string;
  inputs?: Props;
  outputs?: Props;
}

export interface LargeFleetOptions {
  service: LocalService;
  /** The program's directory (the stack files) and the file backend's. */
  work: string;
  backendDir: string;
  project: string;
  passphrase: string;
  /** One applied stack per customer (index 0: customer 0, …). */
  templates: string[];
  count: number;
  /** The sub-accounts of each customer the templates' fleet already uses. */
  skipPerCustomer: number;
}

const stateFile = (o: LargeFleetOptions, stack: string) =>
  path.join(o.backendDir, ".pulumi", "stacks", o.project, `${stack}.json`);

async function subAccounts(service: LocalService, clientId: string, count: number): Promise<string[]> {
  const res = await fetch(`${service.baseUrl}/_admin/sub-accounts`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-admin-key": service.adminKey },
    body: JSON.stringify({ clientId, count }),
  });
  if (res.status !== 200) throw new Error(`POST /_admin/sub-accounts answered ${res.status}`);
  return ((await res.json()) as { response: { subAccountIds: string[] } }).response.subAccountIds;
}

interface Template {
  text: string;
  stackFile: string;
  accountId: string;
  /** Connector id → its configuration's plaintext secretConfig. */
  secretConfigs: Map<string, Record<string, string | number | boolean | string[]>>;
  /** Connector id → its configuration's digest salt (a secret output), when it has one. */
  salts: Map<string, string | undefined>;
  connectorIds: string[];
}

async function readTemplate(o: LargeFleetOptions, stack: string): Promise<Template> {
  const text = await fs.readFile(stateFile(o, stack), "utf8");
  const latest = (
    JSON.parse(text) as {
      checkpoint: { latest: { resources: StateResource[]; secrets_providers: { state: { salt: string } } } };
    }
  ).checkpoint.latest;
  const decrypter = await passphraseDecrypter(o.passphrase, latest.secrets_providers.state.salt);
  const secretConfigs = new Map<string, Record<string, string | number | boolean | string[]>>();
  const salts = new Map<string, string | undefined>();
  let accountId = "";
  const connectorIds: string[] = [];
  for (const r of latest.resources) {
    if (r.type === "embedded:index:AddedConnector") connectorIds.push(String(r.inputs?.connectorId));
    if (r.type !== "embedded:index:ConnectorConfiguration") continue;
    accountId = String(r.inputs?.accountId);
    const sealed = r.inputs?.secretConfig as { ciphertext: string };
    secretConfigs.set(String(r.inputs?.connectorId), JSON.parse(decrypter.decrypt(sealed.ciphertext)));
    // The copies keep the template's salt (still sealed under the same stack file's key).
    const salt = r.outputs?.digestSalt as { ciphertext: string } | undefined;
    salts.set(
      String(r.inputs?.connectorId),
      salt ? (JSON.parse(decrypter.decrypt(salt.ciphertext)) as string) : undefined,
    );
  }
  const stackFile = await fs.readFile(path.join(o.work, `Pulumi.${stack}.yaml`), "utf8");
  return { text, stackFile, accountId, secretConfigs, salts, connectorIds };
}

/** Writes `count` stacks (`L0001`, …); returns their names. */
export async function generateLargeFleet(o: LargeFleetOptions): Promise<string[]> {
  const customers = o.service.customers.slice(0, o.templates.length);
  const perCustomer = Math.ceil(o.count / customers.length);
  const templates = await Promise.all(o.templates.map((t) => readTemplate(o, t)));
  const accounts = await Promise.all(
    customers.map(async (c) =>
      (await subAccounts(o.service, c.clientId, o.skipPerCustomer + perCustomer)).slice(o.skipPerCustomer),
    ),
  );
  const clients = customers.map((c) =>
    getClient({ baseUrl: o.service.baseUrl, clientId: c.clientId, clientSecret: c.clientSecret }),
  );
  const names = Array.from({ length: o.count }, (_, i) => `L${String(i + 1).padStart(4, "0")}`);
  const queue = names.map((name, i) => ({ name, i }));
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const c = job.i % customers.length;
      const t = templates[c];
      const accountId = accounts[c][Math.floor(job.i / customers.length)];
      const client = clients[c];
      await client.addConnectors(accountId, t.connectorIds);
      const state = JSON.parse(
        t.text
          .split(t.accountId)
          .join(accountId)
          .split(`urn:pulumi:${o.templates[c]}::`)
          .join(`urn:pulumi:${job.name}::`),
      ) as { checkpoint: { stack?: string; latest: { resources: StateResource[] } } };
      state.checkpoint.stack = state.checkpoint.stack?.replace(new RegExp(`/${o.templates[c]}$`), `/${job.name}`);
      for (const r of state.checkpoint.latest.resources) {
        if (r.type !== "embedded:index:ConnectorConfiguration" || !r.inputs || !r.outputs) continue;
        const connectorId = String(r.inputs.connectorId);
        const secretConfig = t.secretConfigs.get(connectorId) ?? {};
        const key = digestKeyOf(customers[c].clientSecret, t.salts.get(connectorId));
        const current = await client.getConfiguration(accountId, connectorId);
        const configurationId = current.secretConfig[0]?.configurationId ?? "";
        const view = await client.configure(accountId, connectorId, { configurationId, secretConfig });
        r.inputs.configurationId = configurationId;
        Object.assign(r.outputs, {
          configurationId,
          lastUpdated: view.lastUpdated,
          appliedLastUpdated: view.lastUpdated,
          secretName: view.secretName ?? r.outputs.secretName,
          fieldDigests: digestsOfInputs(key, accountId, connectorId, secretConfig, new Set(hiddenFields(current))),
          digestKeyId: key.id,
        });
      }
      await fs.writeFile(stateFile(o, job.name), JSON.stringify(state));
      await fs.writeFile(path.join(o.work, `Pulumi.${job.name}.yaml`), t.stackFile.split(t.accountId).join(accountId));
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return names;
}
