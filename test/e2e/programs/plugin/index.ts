// The end-to-end program of the plugin `embedded`: declares what stack config asks for, with
// the package imported by its name as a user's program does (`import { embedded } from …`).
//
//   providers:      [{ key, clientId, clientSecretRef, baseUrl?, accountId? }]
//   connectors:     [{ key, connectorId? | find?: { name, supportedType }, accountId?,
//                      adoptExisting?, provider?, import?, retainOnDelete? }]
//   configurations: [{ key, connectorId, after?, accountId?, configurationId?, name?,
//                      secretName?, secretConfig, secretRefs?, envRefs?, provider?, import? }]
//   secretValues:   (secret config) { <ref>: <value> }
//
// A provider is an explicit `embedded.Provider`; its clientSecret is the secret config value
// `secretValues[clientSecretRef]` and its baseUrl defaults to the stack's `embedded:baseUrl`.
// Resources without `provider` use the default provider (stack config `embedded:*`).
// `find` looks the connector id up with `embedded.findConnectorOutput` through the resource's
// provider. `import` is the resource option of that name (an id `<accountId>/<connectorId>`).
// `after` names a connector key to depend on; `secretRefs` maps a field id of secretConfig
// to a key of `secretValues` (a value from secret config, the usual way); `envRefs` maps a
// field id to an environment variable, read as a plain string: the resource must make it
// secret itself. Every resource is exported with all its outputs, and the
// connector ids that `find` resolved as `foundConnectorIds`.
import * as pulumi from "@pulumi/pulumi";
import { embedded, type SecretConfigValue } from "pulumi-embedded-connectors";

interface ProviderSpec {
    key: string;
    clientId: string;
    clientSecretRef: string;
    baseUrl?: string;
    accountId?: string;
}

interface ConnectorSpec {
    key: string;
    connectorId?: string;
    find?: { name: string; supportedType: "Source" | "Destination" };
    accountId?: string;
    adoptExisting?: boolean;
    provider?: string;
    import?: string;
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
    secretConfig: Record<string, SecretConfigValue>;
    secretRefs?: Record<string, string>;
    envRefs?: Record<string, string>;
    provider?: string;
    import?: string;
}

const config = new pulumi.Config();
const embeddedConfig = new pulumi.Config("embedded");
const providerSpecs = config.getObject<ProviderSpec[]>("providers") ?? [];
const connectorSpecs = config.getObject<ConnectorSpec[]>("connectors") ?? [];
const configurationSpecs = config.getObject<ConfigurationSpec[]>("configurations") ?? [];
const secretValues: pulumi.Output<Record<string, string>> =
    config.getSecretObject<Record<string, string>>("secretValues") ?? pulumi.secret<Record<string, string>>({});

const providers: Record<string, embedded.Provider> = {};
for (const spec of providerSpecs) {
    providers[spec.key] = new embedded.Provider(spec.key, {
        baseUrl: spec.baseUrl ?? embeddedConfig.require("baseUrl"),
        clientId: spec.clientId,
        clientSecret: secretValues.apply((values) => values[spec.clientSecretRef]),
        accountId: spec.accountId,
    });
}

function providerOf(key: string | undefined): embedded.Provider | undefined {
    if (key === undefined) {
        return undefined;
    }
    const provider = providers[key];
    if (!provider) {
        throw new Error(`no provider with key ${key}`);
    }
    return provider;
}

const found: Record<string, pulumi.Output<string>> = {};
const added: Record<string, embedded.AddedConnector> = {};
for (const spec of connectorSpecs) {
    const provider = providerOf(spec.provider);
    let connectorId: pulumi.Input<string> | undefined = spec.connectorId;
    if (spec.find) {
        found[spec.key] = embedded.findConnectorOutput(
            { ...spec.find, ...(spec.accountId ? { accountId: spec.accountId } : {}) },
            { provider },
        ).connectorId;
        connectorId = found[spec.key];
    }
    if (connectorId === undefined) {
        throw new Error(`connector ${spec.key} needs connectorId or find`);
    }
    added[spec.key] = new embedded.AddedConnector(
        spec.key,
        { connectorId, accountId: spec.accountId, adoptExisting: spec.adoptExisting },
        { provider, retainOnDelete: spec.retainOnDelete, ...(spec.import ? { import: spec.import } : {}) },
    );
}

const configured: Record<string, embedded.ConnectorConfiguration> = {};
for (const spec of configurationSpecs) {
    const plain: Record<string, SecretConfigValue> = { ...spec.secretConfig };
    for (const [field, variable] of Object.entries(spec.envRefs ?? {})) {
        plain[field] = process.env[variable] ?? "";
    }
    const refs = spec.secretRefs ?? {};
    const secretConfig = Object.keys(refs).length === 0
        ? plain
        : secretValues.apply((values) => {
            const merged: Record<string, SecretConfigValue> = { ...plain };
            for (const [field, ref] of Object.entries(refs)) {
                merged[field] = values[ref];
            }
            return merged;
        });
    configured[spec.key] = new embedded.ConnectorConfiguration(
        spec.key,
        {
            connectorId: spec.connectorId,
            accountId: spec.accountId,
            configurationId: spec.configurationId,
            name: spec.name,
            secretName: spec.secretName,
            secretConfig,
        },
        {
            provider: providerOf(spec.provider),
            dependsOn: spec.after && added[spec.after] ? [added[spec.after]] : [],
            ...(spec.import ? { import: spec.import } : {}),
        },
    );
}

export const connectors = added;
export const configurations = configured;
export const foundConnectorIds = found;
