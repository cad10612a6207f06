// The stack config that the e2e programs (connectors/, the dynamic provider's, and plugin/, the
// plugin's) both read, and how a configuration's secretConfig is put together from it. The
// harness copies this file beside each program's copy (E2EStack.create), so both import it as
// "./program-config".
//
//   providers:      [{ key, clientId, clientSecretRef, baseUrl?, accountId? }]   (plugin only)
//   connectors:     [{ key, connectorId? | find?: { name, supportedType }, accountId?,
//                      adoptExisting?, provider?, import?, retainOnDelete? }]
//   configurations: [{ key, connectorId, after?, accountId?, configurationId?, name?,
//                      secretName?, secretConfig, secretRefs?, envRefs?, provider?, import? }]
//   secretValues:   (secret config) { <ref>: <value> }
//
// `after` names a connector key to depend on. `secretRefs` maps a field id of secretConfig to
// a key of `secretValues` (a value from secret config, the usual way); `envRefs` maps a field id
// to an environment variable, read as a plain string: the resource must make it secret itself.
import * as pulumi from "@pulumi/pulumi";
import type { SecretConfigValue } from "pulumi-embedded-connectors";

export interface ProviderSpec {
  key: string;
  clientId: string;
  clientSecretRef: string;
  baseUrl?: string;
  accountId?: string;
}

export interface ConnectorSpec {
  key: string;
  connectorId?: string;
  find?: { name: string; supportedType: "Source" | "Destination" };
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
}

const config = new pulumi.Config();

export const providerSpecs = config.getObject<ProviderSpec[]>("providers") ?? [];
export const connectorSpecs = config.getObject<ConnectorSpec[]>("connectors") ?? [];
export const configurationSpecs = config.getObject<ConfigurationSpec[]>("configurations") ?? [];
export const secretValues: pulumi.Output<Record<string, string>> =
  config.getSecretObject<Record<string, string>>("secretValues") ?? pulumi.secret<Record<string, string>>({});

/** A configuration's secretConfig: its values, `envRefs` read as plain strings, `secretRefs` from `secretValues`. */
export function secretConfigOf(spec: ConfigurationSpec): pulumi.Input<Record<string, SecretConfigValue>> {
  const plain: Record<string, SecretConfigValue> = { ...spec.secretConfig };
  for (const [field, variable] of Object.entries(spec.envRefs ?? {})) {
    plain[field] = process.env[variable] ?? "";
  }
  const refs = spec.secretRefs ?? {};
  return Object.keys(refs).length === 0
    ? plain
    : secretValues.apply((values) => {
        const merged: Record<string, SecretConfigValue> = { ...plain };
        for (const [field, ref] of Object.entries(refs)) {
          merged[field] = values[ref];
        }
        return merged;
      });
}
