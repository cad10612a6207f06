// The fleet's one program: the connectors of one sub-account, read from its stack's own
// config file Pulumi.<stack>.yaml (the file reviewed in pull requests):
//
//   embedded-fleet:accountId   the sub-account
//   embedded-fleet:customer    whose credentials (a key of customers.json); none: EMBEDDED_CLIENT_ID/SECRET
//   embedded-fleet:connectors  key → { name, supportedType, values, secrets: { field: { config | env } } }
//
// Secrets are named, never written: `{ config: key }` is a secret of the stack (`pulumi config
// set --secret key`, stored encrypted in that file), `{ env: NAME }` an environment variable of
// the run, one that customers.json's `secretEnv` allows the stack's customer (never PULUMI_*
// or a customer's client secret: secret-sources.ts). A secret source feeds Password fields
// only: the service returns every other field in clear. The module exports one function (`export =`), so `pulumi-embedded-connectors fleet`
// loads it once for every stack (an Automation API inline program), and `pulumi up` (or the
// Kubernetes operator) calls the same function.
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { embedded, type SecretConfigValue } from "pulumi-embedded-connectors";
import { clearFieldRefusal, envSourceRefusal, type Customer } from "./secret-sources";

type SecretSource = { config: string } | { env: string };

interface ConnectorSpec {
  name: string;
  supportedType: "Source" | "Destination";
  values?: Record<string, SecretConfigValue>;
  secrets?: Record<string, SecretSource>;
}

const customers = JSON.parse(fs.readFileSync(path.join(__dirname, "customers.json"), "utf8")) as Record<
  string,
  Customer
>;

function fromEnv(name: string, what: string): pulumi.Output<string> {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`${what}: set the environment variable ${name}`);
  return pulumi.secret(value);
}

async function fleetProgram(): Promise<Record<string, unknown>> {
  const config = new pulumi.Config();
  const accountId = config.require("accountId");
  const customerName = config.get("customer");
  const connectors = config.requireObject<Record<string, ConnectorSpec>>("connectors");

  let provider: embedded.Provider;
  if (customerName !== undefined) {
    const customer = customers[customerName];
    if (!customer) {
      throw new Error(
        `customer "${customerName}" is not in customers.json (its customers: ${Object.keys(customers).join(", ")})`,
      );
    }
    provider = new embedded.Provider(customerName, {
      baseUrl: customer.baseUrl,
      clientId: customer.clientId,
      clientSecret: fromEnv(customer.clientSecretEnv, `customer ${customerName}'s client secret`),
      accountId,
    });
  } else {
    provider = new embedded.Provider("default", { accountId });
  }

  // Every `{ env }` source checked before any resource: one error naming each refused one.
  const refused = Object.entries(connectors).flatMap(([key, spec]) =>
    Object.entries(spec.secrets ?? {}).flatMap(([field, source]) => {
      if (!("env" in source)) return [];
      const why = envSourceRefusal(source.env, `connector ${key}, field ${field}`, customerName, customers);
      return why ? [why] : [];
    }),
  );
  if (refused.length > 0) throw new pulumi.RunError(`stack ${pulumi.getStack()}: ${refused.join("; ")}`);

  const ids: Record<string, pulumi.Output<string>> = {};
  for (const [key, spec] of Object.entries(connectors)) {
    // Names, not ids, in the reviewed file: a typo fails at preview, listing near matches.
    const found = embedded.findConnectorOutput({ name: spec.name, supportedType: spec.supportedType }, { provider });
    const added = new embedded.AddedConnector(key, { connectorId: found.connectorId }, { provider });
    const secretConfig: Record<string, pulumi.Input<SecretConfigValue>> = { ...spec.values };
    // The field types of the added connector (Get Connector Configuration), when it has secrets.
    const fieldTypes = spec.secrets
      ? embedded
          .getConnectorConfigurationOutput({ connectorId: added.connectorId }, { provider })
          .apply((c) => Object.fromEntries(c.fields.map((f) => [f.id, f.type])) as Record<string, string>)
      : undefined;
    for (const [field, source] of Object.entries(spec.secrets ?? {})) {
      const where = `stack ${pulumi.getStack()}, connector ${key}, field ${field}`;
      const value =
        "config" in source
          ? config.requireSecret(source.config)
          : fromEnv(source.env, `connector ${key}, field ${field}`);
      // Refused before the configuration is written: it waits for this check.
      secretConfig[field] = pulumi.all([fieldTypes!, value]).apply(([types, v]) => {
        const why = clearFieldRefusal(where, types[field]);
        if (why) throw new pulumi.RunError(why);
        return v;
      });
    }
    new embedded.ConnectorConfiguration(key, { connectorId: added.connectorId, secretConfig }, { provider });
    ids[key] = added.connectorId;
  }
  return { accountId, connectorIds: ids };
}

export = fleetProgram;
