// The 1,000-stack fleet of `npm run bench:fleet` (--large), made without 1,000 engine runs:
// each stack's sub-account gets the connectors of a template stack (one that `fleet up`
// applied, one per customer) through the service's own API, and the stack's checkpoint is the
// template's with the sub-account's ids, the service's lastUpdated and the digests of the
// same values under the customer's key, what `fleet up` would have written. Each stack has its
// own encryption salt, as `pulumi stack init` draws it (passphrase-writer.ts): its stack file's
// encryptionsalt and its checkpoint's secrets provider say it, and every secret of the
// checkpoint (and any `secure:` value of the stack file) is encrypted under its own key, so
// the fleet derives one key per stack, as for a real fleet.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { getClient } from "../provider/client";
import { digestKeyOf, digestsOfInputs, hiddenFields } from "../provider/connector-configuration/field-digests";
import type { Decrypter } from "../cli/fleet/drift/passphrase";
import { isSecretValue } from "../cli/fleet/drift/plan";
import type { LocalService } from "../harness/local-service";
import { checkpointKey, type StateObjects } from "./fleet-backend";
import { encryptWith } from "./passphrase-writer";
import type { StackKeyMaker } from "./stack-keys";

type Props = Record<string, unknown>;
interface StateResource {
  urn: string;
  type: string;
  inputs?: Props;
  outputs?: Props;
}

export interface LargeFleetOptions {
  service: LocalService;
  /** The program's directory (the stack files). */
  work: string;
  /** The backend's objects (the checkpoints). */
  states: StateObjects;
  project: string;
  /** Each stack's own key: a passphrase salt, or a KMS data key (stack-keys.ts). */
  keys: StackKeyMaker;
  /** One applied stack per customer (index 0: customer 0, …). */
  templates: string[];
  count: number;
  /** The sub-accounts of each customer the templates' fleet already uses. */
  skipPerCustomer: number;
}

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
  decrypter: Decrypter;
}

async function readTemplate(o: LargeFleetOptions, stack: string): Promise<Template> {
  const text = await o.states.read(checkpointKey(o.project, stack));
  const latest = (
    JSON.parse(text) as {
      checkpoint: {
        latest: { resources: StateResource[]; secrets_providers: { type: string; state: Record<string, string> } };
      };
    }
  ).checkpoint.latest;
  const decrypter = await o.keys.open(latest.secrets_providers);
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
  return { text, stackFile, accountId, secretConfigs, salts, connectorIds, decrypter };
}

/** Every secret of `value` (a checkpoint's part) re-encrypted from `from`'s key to `key`. */
export function reencryptSecrets(value: unknown, from: Decrypter, key: Buffer): unknown {
  if (isSecretValue(value)) return { ...value, ciphertext: encryptWith(key, from.decrypt(value.ciphertext)) };
  if (Array.isArray(value)) return value.map((v) => reencryptSecrets(v, from, key));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reencryptSecrets(v, from, key)]));
  return value;
}

/**
 * A stack file under a new key: its top-level keys that carry it (`encryptionsalt`, or a KMS
 * stack's `encryptedkey`), and its `secure:` values under the new key.
 */
export function restampStackFile(
  text: string,
  from: Decrypter,
  stackFileKeys: Record<string, string>,
  key: Buffer,
): string {
  let out = text;
  for (const [name, value] of Object.entries(stackFileKeys)) {
    const line = new RegExp(`^${name}: .*$`, "m");
    if (!line.test(out)) throw new Error(`the template's stack file has no ${name}`);
    out = out.replace(line, `${name}: ${value}`);
  }
  return out.replace(/(\bsecure: )(v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+)/g, (_all, head: string, ciphertext: string) => {
    return `${head}${encryptWith(key, from.decrypt(ciphertext))}`;
  });
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
      ) as {
        checkpoint: {
          stack?: string;
          latest: { resources: StateResource[]; secrets_providers: { state: Record<string, string> } };
        };
      };
      const own = await o.keys.fresh();
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
          fieldDigests: digestsOfInputs(
            key,
            accountId,
            connectorId,
            secretConfig,
            new Set(hiddenFields(current, undefined)),
          ),
          digestKeyId: key.id,
        });
      }
      const latest = state.checkpoint.latest;
      latest.resources = reencryptSecrets(latest.resources, t.decrypter, own.key) as StateResource[];
      latest.secrets_providers.state = own.state;
      await o.states.write(checkpointKey(o.project, job.name), JSON.stringify(state));
      const stackFile = restampStackFile(
        t.stackFile.split(t.accountId).join(accountId),
        t.decrypter,
        own.stackFileKeys,
        own.key,
      );
      await fs.writeFile(path.join(o.work, `Pulumi.${job.name}.yaml`), stackFile);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return names;
}
