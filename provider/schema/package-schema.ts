// The Pulumi package schema of the plugin `embedded`, built from the definitions: what
// `pulumi package get-schema`, Pulumi YAML and `pulumi import` read.
import { PLUGIN_DOWNLOAD_URL } from "./plugin-release";
import { SETTINGS } from "../settings/resolve";
import { ADDED_CONNECTOR } from "./added-connector";
import { CONNECTOR_CONFIGURATION } from "./connector-configuration";
import { withExample } from "./examples";
import { FUNCTIONS, OBJECT_TYPES } from "./functions";
import { functionSecrets } from "./secrets";
import {
  allProperties,
  secretKeys,
  type FunctionDefinition,
  type Properties,
  type PropertyType,
  type ResourceDefinition,
} from "./property";

/** The plugin's package name: type tokens are `embedded:index:<Name>`. */
export const PACKAGE_NAME = "embedded";

export const RESOURCES = [ADDED_CONNECTOR, CONNECTOR_CONFIGURATION] as const;

export function token(name: string): string {
  return `${PACKAGE_NAME}:index:${name}`;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function typeSpec(type: PropertyType): { [key: string]: Json } {
  if (typeof type === "string") return { type };
  if ("array" in type) return { type: "array", items: typeSpec(type.array) };
  if ("map" in type) return { type: "object", additionalProperties: typeSpec(type.map) };
  if ("ref" in type) return { $ref: `#/types/${token(type.ref)}` };
  if ("enum" in type) return { type: "string" }; // values are documented; the service may add some
  // A union is Any: Pulumi's Python runtime refuses a list sent through an input typed as a union
  // holding a list ("Expected 'list' got 'typing.Union[...]'"), so the stock generators' SDKs
  // would fail a Multi-Select given as a list. The description lists the accepted shapes, and
  // check validates them against the live descriptors (schema/checks.ts).
  return { $ref: "pulumi.json#/Any" };
}

function propertySpecs(properties: Properties): { [key: string]: Json } {
  const specs: { [key: string]: Json } = {};
  for (const [name, property] of Object.entries(properties)) {
    const spec: { [key: string]: Json } = { ...typeSpec(property.type), description: property.description };
    if (property.secret) spec.secret = true;
    if (property.replaceOnChange) spec.replaceOnChange = true;
    if (property.default !== undefined) spec.default = property.default;
    specs[name] = spec;
  }
  return specs;
}

function requiredOf(properties: Properties): string[] {
  return Object.entries(properties)
    .filter(([, property]) => property.required)
    .map(([name]) => name);
}

function resourceSpec(definition: ResourceDefinition): Json {
  const outputs = allProperties(definition);
  return {
    description: withExample(definition.name, definition.description),
    inputProperties: propertySpecs(definition.inputs),
    requiredInputs: requiredOf(definition.inputs),
    properties: propertySpecs(outputs),
    // Every input but the input-only ones is echoed as an output; check resolves accountId from the provider when it is not given.
    required: [...requiredOf(outputs).filter((name) => name in definition.inputs), "accountId"],
  };
}

function functionSpec(definition: FunctionDefinition): Json {
  const outputs = propertySpecs(definition.outputs);
  // An output holding a secret property is secret as a whole (schema/secrets.ts).
  for (const name of functionSecrets(definition)) (outputs[name] as { [key: string]: Json }).secret = true;
  return {
    description: withExample(definition.name, definition.description),
    inputs: { properties: propertySpecs(definition.inputs), required: requiredOf(definition.inputs) },
    outputs: { properties: outputs, required: requiredOf(definition.outputs) },
  };
}

/** The provider's settings: its config variables and its own inputs (an explicit provider's arguments). */
function settingsSpecs(): { [key: string]: Json } {
  const specs: { [key: string]: Json } = {};
  for (const [name, setting] of Object.entries(SETTINGS)) {
    const spec: { [key: string]: Json } = {
      type: setting.type,
      description: `${setting.description} Stack config \`${setting.key}\`, else the environment variable \`${setting.env}\`.`,
      defaultInfo: { environment: [setting.env] },
    };
    if (secretKeys(SETTINGS).includes(name)) spec.secret = true;
    specs[name] = spec;
  }
  return specs;
}

/** The Python SDK's module and distribution name (`pip install pulumi_embedded`). */
export const PYTHON_PACKAGE = "pulumi_embedded";
/** The floor of the `pulumi` the Python SDK requires (the generator's own). */
const PYTHON_PULUMI = ">=3.231.0,<4.0.0";

/**
 * The Go SDK's module path: the repository of package.json's `pulumi.server`
 * (`github://api.github.com/<owner>/<repo>` → `github.com/<owner>/<repo>`), directory sdk/go.
 */
export function goModulePath(downloadUrl: string = PLUGIN_DOWNLOAD_URL): string {
  const repository = /^github:\/\/api\.github\.com\/([^/]+\/[^/]+?)\/?$/.exec(downloadUrl);
  if (!repository) throw new Error(`package.json pulumi.server is not a github:// release URL: ${downloadUrl}`);
  return `github.com/${repository[1]}/sdk/go`;
}

/** The schema's language sections: what Pulumi's generators name each SDK (and `pulumi package add` too). */
function languageSections(): Json {
  return {
    nodejs: { packageName: "pulumi-embedded-connectors" },
    python: {
      packageName: PYTHON_PACKAGE,
      respectSchemaVersion: true,
      pyproject: { enabled: true },
      requires: { pulumi: PYTHON_PULUMI },
    },
    go: {
      importBasePath: `${goModulePath()}/${PACKAGE_NAME}`,
      modulePath: goModulePath(),
      respectSchemaVersion: true,
    },
  };
}

/** The whole schema, for a plugin of this version. */
export function packageSchema(version: string): Json {
  const settings = settingsSpecs();
  return {
    name: PACKAGE_NAME,
    displayName: "Embedded Connectors",
    version,
    description:
      "The connectors of an embedded data-integration service: add catalogue connectors to a sub-account, keep their " +
      "secret configurations, look the catalogue up, and detect drift.",
    keywords: ["pulumi", "embedded", "connectors", "category/utility"],
    license: "Apache-2.0",
    // Every SDK names it, so that the engine installs the plugin by itself (package.json `pulumi.server`).
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    config: { variables: settings },
    provider: {
      description:
        "The provider of one customer's credentials and defaults; unset arguments fall back to the environment.",
      inputProperties: settings,
      properties: Object.fromEntries(Object.entries(settings).filter(([name]) => !secretKeys(SETTINGS).includes(name))),
    },
    resources: Object.fromEntries(RESOURCES.map((definition) => [token(definition.name), resourceSpec(definition)])),
    functions: Object.fromEntries(FUNCTIONS.map((definition) => [token(definition.name), functionSpec(definition)])),
    types: Object.fromEntries(
      OBJECT_TYPES.map((type) => [
        token(type.name),
        {
          type: "object",
          description: type.description,
          properties: propertySpecs(type.properties),
          required: requiredOf(type.properties),
        },
      ]),
    ),
    language: languageSections(),
  };
}
