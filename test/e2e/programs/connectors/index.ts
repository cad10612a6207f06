// The end-to-end program: declares what stack config `connectors` and
// `configurations` (JSON) ask for, with the package imported by its name as a
// user's program does.
//
//   connectors:     [{ key, connectorId, accountId?, adoptExisting?, retainOnDelete? }]
//   configurations: [{ key, connectorId, after?, accountId?, configurationId?, name?,
//                      secretName?, secretConfig, secretRefs?, envRefs? }]
//   secretValues:   (secret config) { <ref>: <value> }
//
// `after` names a connector key to depend on. `secretRefs` maps a field id of
// secretConfig to a key of `secretValues` (a value from secret config, the
// usual way); `envRefs` maps a field id to an environment variable, read as a
// plain string: the resource must make it secret itself. (A plain value in
// stack config would not do for that: the engine hands all stack config to
// the dynamic provider and keeps it in the state as the provider's inputs.)
// Every resource is exported with all its outputs.
import * as pulumi from "@pulumi/pulumi";
import * as ec from "pulumi-embedded-connectors";

interface ConnectorSpec {
    key: string;
    connectorId: string;
    accountId?: string;
    adoptExisting?: boolean;
    retainOnDelete?: boolean;
}

interface ConfigurationSpec {
    key: string;
    connectorId: string;
    after?: string;
    accountId?: string;
    configurationId?: string;
    name?: string;
    secretName?: string;
    secretConfig: Record<string, ec.SecretConfigValue>;
    secretRefs?: Record<string, string>;
    envRefs?: Record<string, string>;
}

const config = new pulumi.Config();
const connectorSpecs = config.getObject<ConnectorSpec[]>("connectors") ?? [];
const configurationSpecs = config.getObject<ConfigurationSpec[]>("configurations") ?? [];
const secretValues = config.getSecretObject<Record<string, string>>("secretValues") ?? pulumi.secret({});

const added: Record<string, ec.AddedConnector> = {};
for (const spec of connectorSpecs) {
    added[spec.key] = new ec.AddedConnector(
        spec.key,
        { connectorId: spec.connectorId, accountId: spec.accountId, adoptExisting: spec.adoptExisting },
        { retainOnDelete: spec.retainOnDelete },
    );
}

const configured: Record<string, ec.ConnectorConfiguration> = {};
for (const spec of configurationSpecs) {
    const plain: Record<string, ec.SecretConfigValue> = { ...spec.secretConfig };
    for (const [field, variable] of Object.entries(spec.envRefs ?? {})) {
        plain[field] = process.env[variable] ?? "";
    }
    const refs = spec.secretRefs ?? {};
    const secretConfig = Object.keys(refs).length === 0
        ? plain
        : secretValues.apply((values) => {
            const merged: Record<string, ec.SecretConfigValue> = { ...plain };
            for (const [field, ref] of Object.entries(refs)) {
                merged[field] = values[ref];
            }
            return merged;
        });
    configured[spec.key] = new ec.ConnectorConfiguration(
        spec.key,
        {
            connectorId: spec.connectorId,
            accountId: spec.accountId,
            configurationId: spec.configurationId,
            name: spec.name,
            secretName: spec.secretName,
            secretConfig,
        },
        { dependsOn: spec.after && added[spec.after] ? [added[spec.after]] : [] },
    );
}

export const connectors = added;
export const configurations = configured;
