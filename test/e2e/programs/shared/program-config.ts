// The stack config that the e2e programs (connectors/, the dynamic provider's, and plugin/, the
// plugin's) both read, and how a configuration's secretConfig is put together from it. The
// harness copies this file beside each program's copy (E2EStack.create), so both import it as
// "./program-config".
//
//   providers:      [{ key, clientId, clientSecretRef | clientSecretKey, baseUrl?, accountId? }]   (plugin only)
//   connectors:     [{ key, connectorId? | find?: { name, supportedType }, accountId?,
//                      adoptExisting?, provider?, import?, retainOnDelete? }]
//   configurations: [{ key, connectorId, after?, accountId?, configurationId?, name?,
//                      secretName?, secretConfig, secretRefs?, envRefs?, provider?, import?,
//                      secretStringRefs?, secretEnvRefs?, componentRefs?, secretConfigEnv?,
//                      accountIdRef?, configurationIdRef?, heldByService? }]
//   secretValues:   (secret config) { <ref>: <value> }
//
// `after` names a connector key to depend on. `secretRefs` maps a field id of secretConfig to
// a key of `secretValues` (a value from secret config, the usual way); `envRefs` maps a field id
// to an environment variable, read as a plain string: the resource must make it secret itself.
// The other secret sources: `secretStringRefs` maps a field to a key of
// program config set as a secret string (`config.requireSecret`); `secretEnvRefs` maps a field
// to an environment variable made secret by the program (`pulumi.secret(process.env.X)`);
// `componentRefs` maps a field to an environment variable read as a plain string, handed to the
// field as another resource's secret output (a component, `SecretHolder`:);
// `secretConfigEnv` makes the whole secretConfig one string, the environment variable it names
// made secret by the program (the natural mistake of `config.require_secret("s3")` holding JSON;
// from the environment, since the CLI masks secret strings of stack config); `accountIdRef` makes accountId
// the secret string config key it names; `configurationIdRef` the same for configurationId.
import * as pulumi from "@pulumi/pulumi";
import type { SecretConfigValue } from "pulumi-embedded-connectors";

export interface ProviderSpec {
  key: string;
  clientId: string;
  /** A key of `secretValues`. */
  clientSecretRef?: string;
  /** Or a key of program config set as a secret string (which the CLI masks in all it prints). */
  clientSecretKey?: string;
  baseUrl?: string;
  accountId?: string;
  /** Arguments given as secrets: argument name → a key of `secretValues`. */
  secretArgRefs?: Record<string, string>;
}

export interface ConnectorSpec {
  key: string;
  connectorId?: string;
  /** A lookup of the connector id by name; `nameRef`: the name given as a secret (a key of `secretValues`). */
  find?: { name?: string; nameRef?: string; supportedType: "Source" | "Destination" };
  accountId?: string;
  adoptExisting?: boolean;
  provider?: string;
  import?: string;
  retainOnDelete?: boolean;
}

export interface ConfigurationSpec {
  key: string;
  connectorId: string;
  after?: string;
  accountId?: string;
  configurationId?: string;
  name?: string;
  secretName?: string;
  secretConfig: Record<string, SecretConfigValue>;
  secretRefs?: Record<string, string>;
  envRefs?: Record<string, string>;
  provider?: string;
  import?: string;
  secretStringRefs?: Record<string, string>;
  secretEnvRefs?: Record<string, string>;
  componentRefs?: Record<string, string>;
  secretConfigEnv?: string;
  accountIdRef?: string;
  configurationIdRef?: string;
  /** Password fields left to the service (never sent). */
  heldByService?: string[];
}

const config = new pulumi.Config();

export const providerSpecs = config.getObject<ProviderSpec[]>("providers") ?? [];
export const connectorSpecs = config.getObject<ConnectorSpec[]>("connectors") ?? [];
export const configurationSpecs = config.getObject<ConfigurationSpec[]>("configurations") ?? [];
export const secretValues: pulumi.Output<Record<string, string>> =
  config.getSecretObject<Record<string, string>>("secretValues") ?? pulumi.secret<Record<string, string>>({});

/** A configuration's accountId: `accountIdRef` (a secret config string) or the plain `accountId`. */
export function accountIdOf(spec: ConfigurationSpec): pulumi.Input<string> | undefined {
  return spec.accountIdRef ? config.requireSecret(spec.accountIdRef) : spec.accountId;
}

/** A configuration's configurationId: `configurationIdRef` (a secret config string) or the plain one. */
export function configurationIdOf(spec: ConfigurationSpec): pulumi.Input<string> | undefined {
  return spec.configurationIdRef ? config.requireSecret(spec.configurationIdRef) : spec.configurationId;
}

/** Another resource: a component that takes a plain value and hands it on as a secret output. */
class SecretHolder extends pulumi.ComponentResource {
  readonly value: pulumi.Output<string>;

  constructor(name: string, value: string) {
    super("e2e:index:SecretHolder", name, {}, {});
    this.value = pulumi.secret(value);
    this.registerOutputs({ value: this.value });
  }
}

/**
 * A configuration's secretConfig: its values, `envRefs` read as plain strings, `secretEnvRefs`
 * made secret here, `secretRefs` from `secretValues`, `secretStringRefs` from secret config strings,
 * `componentRefs` from a SecretHolder's output.
 */
export function secretConfigOf(spec: ConfigurationSpec): pulumi.Input<Record<string, SecretConfigValue>> {
  if (spec.secretConfigEnv) {
    const whole = pulumi.secret(process.env[spec.secretConfigEnv] ?? "");
    return whole as unknown as pulumi.Input<Record<string, SecretConfigValue>>;
  }
  const plain: Record<string, SecretConfigValue> = { ...spec.secretConfig };
  for (const [field, variable] of Object.entries(spec.envRefs ?? {})) {
    plain[field] = process.env[variable] ?? "";
  }
  const secretEnv = Object.entries(spec.secretEnvRefs ?? {}).map(([field, variable]) =>
    pulumi.secret(process.env[variable] ?? "").apply((value): [string, string] => [field, value]),
  );
  const secretStrings = Object.entries(spec.secretStringRefs ?? {}).map(([field, key]) =>
    config.requireSecret(key).apply((value): [string, string] => [field, value]),
  );
  const held = Object.entries(spec.componentRefs ?? {}).map(([field, variable]) =>
    new SecretHolder(`${spec.key}-${field}`, process.env[variable] ?? "").value.apply((value): [string, string] => [
      field,
      value,
    ]),
  );
  const given = [...secretEnv, ...secretStrings, ...held];
  const refs = spec.secretRefs ?? {};
  if (Object.keys(refs).length === 0 && given.length === 0) return plain;
  return pulumi.all([secretValues, ...given]).apply(([values, ...pairs]) => {
    const merged: Record<string, SecretConfigValue> = { ...plain, ...Object.fromEntries(pairs as [string, string][]) };
    for (const [field, ref] of Object.entries(refs)) {
      merged[field] = values[ref];
    }
    return merged;
  });
}

/** A lookup's arguments: the name given plainly, or as a secret (`nameRef`). */
export function findArgsOf(find: NonNullable<ConnectorSpec["find"]>): {
  name: pulumi.Input<string>;
  supportedType: "Source" | "Destination";
} {
  const ref = find.nameRef;
  const name = ref ? secretValues.apply((values) => values[ref] ?? "") : (find.name ?? "");
  return { name, supportedType: find.supportedType };
}

/** An explicit provider's arguments given as secrets (`secretArgRefs`). */
export function secretArgsOf(spec: ProviderSpec): Record<string, pulumi.Output<string>> {
  return Object.fromEntries(
    Object.entries(spec.secretArgRefs ?? {}).map(([arg, ref]) => [arg, secretValues.apply((values) => values[ref])]),
  );
}
