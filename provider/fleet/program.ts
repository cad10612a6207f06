// The fleet's one program, in the package: the connectors of one sub-account, read from its
// stack's own config file Pulumi.<stack>.yaml (the file reviewed in pull requests):
//
//   <project>:accountId   the sub-account
//   <project>:customer    whose credentials (a key of customers.json); none: EMBEDDED_CLIENT_ID/SECRET
//   <project>:connectors  key → { name, supportedType, values, secrets: { field: { config | env } }, heldByService }
//
// Secrets are named, never written: `{ config: key }` is a secret of the stack (`pulumi config
// set --secret key`, stored encrypted in that file), `{ env: NAME }` an environment variable of
// the run, one that customers.json's `secretEnv` allows the stack's customer (never PULUMI_*
// or a customer's client secret: secret-sources.ts). A secret source feeds Password fields
// only: the service returns every other field in clear.
//
// The names and parents of what it declares are those of examples/fleet/index.ts before this
// program moved into the package (one provider named after the customer, or "default"; an
// AddedConnector and a ConnectorConfiguration named after each key, at the stack's root): a
// fleet that switches to it keeps its URNs, and its next `up` changes nothing.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as pulumi from "@pulumi/pulumi";
import * as embedded from "../hosts/sdk";
import { FLEET_IMPORT_ENV } from "./import-env";
import { jsonFaultOf } from "../project/pulumi-project";

export { FLEET_IMPORT_ENV };
import type { SecretConfigValue } from "../schema/resource-types";
import { noConfig, optionalProfile } from "../settings/resolve";
import { clearFieldRefusal, envSourceRefusal, type Customer } from "./secret-sources";

/** Where a secret field's value comes from: a secret of the stack, or an environment variable of the run. */
export type SecretSource = { config: string } | { env: string };

/** One connector of a stack file's `connectors`. */
export interface ConnectorSpec {
  /** The catalogue name (a typo fails at preview, listing near matches). */
  name: string;
  supportedType: "Source" | "Destination";
  /** Values that are not secret, reviewed in the stack file. */
  values?: Record<string, SecretConfigValue>;
  /** Secret fields (Password fields only), each named by its source, never by its value. */
  secrets?: Record<string, SecretSource>;
  /**
   * Password fields the service holds (the customer's own key): never sent, so never cleared
   * (the ConnectorConfiguration's `heldByService`). `fleet adopt` writes them.
   */
  heldByService?: string[];
  /**
   * false: the connector is added and left unconfigured (no ConnectorConfiguration is declared,
   * so none is written or read for drift); `fleet adopt` writes it for a connector added but not
   * yet configured. Default true.
   */
  configured?: boolean;
}

export interface FleetProgramOptions {
  /**
   * The program's directory, where `customersFile` is read. Default: the directory of the module
   * that calls `fleetProgram` (your `index.ts`), whatever the working directory of the run.
   */
  dir?: string;
  /** The customers file, relative to `dir`. Default: `customers.json`. */
  customersFile?: string;
}

/** What each stack exports: its sub-account and the ids of its connectors by key. */
export interface FleetStackOutputs {
  accountId: string;
  connectorIds: Record<string, pulumi.Output<string>>;
}

/** The file of the function that called the caller of this one (V8's structured stack). */
function callerFile(): string | undefined {
  const original = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, frames) => frames;
    const frames = new Error().stack as unknown as NodeJS.CallSite[];
    // frames[0]: callerFile, [1]: fleetProgram, [2]: the user's module.
    const file = frames[2]?.getFileName() ?? undefined;
    return file?.startsWith("file:") ? fileURLToPath(file) : file;
  } finally {
    Error.prepareStackTrace = original;
  }
}

function readCustomers(file: string): Record<string, Customer> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new pulumi.RunError(
      `the fleet's customers file ${file} cannot be read (${code}): create it (docs/fleets.md), or pass fleetProgram({ dir, customersFile })`,
    );
  }
  try {
    return JSON.parse(text) as Record<string, Customer>;
  } catch (error) {
    throw new pulumi.RunError(`the fleet's customers file ${file} is not JSON (${jsonFaultOf(text, error)})`);
  }
}

function fromEnv(name: string, what: string): pulumi.Output<string> {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`${what}: set the environment variable ${name}`);
  return pulumi.secret(value);
}

function customerProvider(
  customers: Record<string, Customer>,
  customerName: string | undefined,
  accountId: string,
): embedded.Provider {
  if (customerName === undefined) return new embedded.Provider("default", { accountId });
  const customer = customers[customerName];
  if (!customer) {
    throw new Error(
      `customer "${customerName}" is not in customers.json (its customers: ${Object.keys(customers).join(", ")})`,
    );
  }
  return new embedded.Provider(customerName, {
    baseUrl: customer.baseUrl,
    clientId: customer.clientId,
    clientSecret: fromEnv(customer.clientSecretEnv, `customer ${customerName}'s client secret`),
    accountId,
  });
}

/** The id `fleet adopt` imports a connector (and its configuration) by: `<accountId>/<connectorId>`. */
async function importIdOf(spec: ConnectorSpec, accountId: string, provider: embedded.Provider): Promise<string> {
  const found = await embedded.findConnector({ name: spec.name, supportedType: spec.supportedType }, { provider });
  return `${accountId}/${found.connectorId}`;
}

/** `configured: false` with values to write is a contradiction: refused before any resource. */
function checkUnconfigured(connectors: Record<string, ConnectorSpec>): void {
  const refused = Object.entries(connectors).flatMap(([key, spec]) =>
    spec.configured === false &&
    (Object.keys(spec.values ?? {}).length > 0 ||
      Object.keys(spec.secrets ?? {}).length > 0 ||
      (spec.heldByService ?? []).length > 0)
      ? [
          `stack ${pulumi.getStack()}, connector ${key}: configured is false, so it takes no values, secrets or heldByService; remove them, or remove configured: false to configure it`,
        ]
      : [],
  );
  if (refused.length > 0) throw new pulumi.RunError(refused.join("\n"));
}

/** Every `{ env }` source checked before any resource: one error naming each refused one. */
function checkEnvSources(
  connectors: Record<string, ConnectorSpec>,
  customerName: string | undefined,
  customers: Record<string, Customer>,
): void {
  const refused = Object.entries(connectors).flatMap(([key, spec]) =>
    Object.entries(spec.secrets ?? {}).flatMap(([field, source]) => {
      if (!("env" in source)) return [];
      const why = envSourceRefusal(source.env, `connector ${key}, field ${field}`, customerName, customers);
      return why ? [why] : [];
    }),
  );
  if (refused.length > 0) throw new pulumi.RunError(`stack ${pulumi.getStack()}: ${refused.join("; ")}`);
}

/**
 * The fleet's program: `export = fleetProgram();` in the fleet's `index.ts`. It returns the
 * function the Node.js language host calls (`pulumi up --stack <stack>`, the Kubernetes
 * operator), which `pulumi-embedded-connectors fleet` loads once and runs for every stack.
 */
export function fleetProgram(options: FleetProgramOptions = {}): () => Promise<FleetStackOutputs> {
  const dir = path.resolve(options.dir ?? path.dirname(callerFile() ?? path.join(process.cwd(), "index.ts")));
  const customersFile = path.resolve(dir, options.customersFile ?? "customers.json");
  return async () => {
    const customers = readCustomers(customersFile);
    const config = new pulumi.Config();
    const accountId = config.require("accountId");
    const customerName = config.get("customer");
    const connectors = config.requireObject<Record<string, ConnectorSpec>>("connectors");
    const provider = customerProvider(customers, customerName, accountId);
    // The customers' providers take no profile argument: theirs comes from the environment, as here.
    const profile = optionalProfile(noConfig, process.env);
    checkEnvSources(connectors, customerName, customers);
    checkUnconfigured(connectors);
    const importing = process.env[FLEET_IMPORT_ENV] === "1";

    const connectorIds: Record<string, pulumi.Output<string>> = {};
    for (const [key, spec] of Object.entries(connectors)) {
      // `fleet adopt`'s one run: Pulumi's import option (the engine reads; a difference fails it).
      const importId = importing ? await importIdOf(spec, accountId, provider) : undefined;
      const imported = importId === undefined ? {} : { import: importId };
      // Names, not ids, in the reviewed file: a typo fails at preview, listing near matches.
      const found = embedded.findConnectorOutput({ name: spec.name, supportedType: spec.supportedType }, { provider });
      const added = new embedded.AddedConnector(key, { connectorId: found.connectorId }, { provider, ...imported });
      connectorIds[key] = added.connectorId;
      if (spec.configured === false) continue;
      const secrets = importing ? {} : (spec.secrets ?? {});
      const held = [...(spec.heldByService ?? []), ...(importing ? Object.keys(spec.secrets ?? {}) : [])];
      const secretConfig: Record<string, pulumi.Input<SecretConfigValue>> = { ...spec.values };
      // The field types of the added connector (Get Connector Configuration), when it has secrets.
      const fieldTypes =
        Object.keys(secrets).length > 0
          ? embedded
              .getConnectorConfigurationOutput({ connectorId: added.connectorId }, { provider })
              .apply((c) => Object.fromEntries(c.fields.map((f) => [f.id, f.type])) as Record<string, string>)
          : undefined;
      for (const [field, source] of Object.entries(secrets)) {
        const where = `stack ${pulumi.getStack()}, connector ${key}, field ${field}`;
        const value =
          "config" in source
            ? config.requireSecret(source.config)
            : fromEnv(source.env, `connector ${key}, field ${field}`);
        // Refused before the configuration is written: it waits for this check.
        secretConfig[field] = pulumi.all([fieldTypes!, value]).apply(([types, v]) => {
          const why = clearFieldRefusal(where, types[field], profile);
          if (why) throw new pulumi.RunError(why);
          return v;
        });
      }
      new embedded.ConnectorConfiguration(
        key,
        { connectorId: added.connectorId, secretConfig, ...(held.length > 0 ? { heldByService: held } : {}) },
        { provider, ...imported },
      );
    }
    return { accountId, connectorIds };
  };
}
