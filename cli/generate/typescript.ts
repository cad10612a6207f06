// `generate --language ts`: the TypeScript program. By default with the package's dynamic
// resources, as generate has always written it: the engine's `pulumi import` does not work for
// those, so each resource carries `adoptExisting: true` and the first `pulumi up` takes the
// sub-account over (writing each configuration once). With `--resources plugin`, the plugin's
// resources (`embedded.*`), adopted with no change by the import file written beside it.
import { IMPORT_THEN } from "./import-file";
import { connectorComment, headerLines, jsonLiteral, type AdoptionPlan, type FieldPlan } from "./model";

export type TypeScriptResources = "dynamic" | "plugin";

/** A `secretConfig` entry: the value in clear, or read from a secret config key. */
function entry(field: FieldPlan, read: (key: string) => string): string {
  return `${jsonLiteral(field.id)}: ${"secretKey" in field ? read(field.secretKey) : jsonLiteral(field.literal)}`;
}

export function renderTypeScript(plan: AdoptionPlan, resources: TypeScriptResources): string {
  const dynamic = resources === "dynamic";
  const ns = dynamic ? "ec" : "embedded";
  const body: string[] = [];
  for (const c of plan.connectors) {
    const addedName = dynamic ? c.resource : c.variable;
    // The saved configuration is taken over, not refused (docs/configuration-ownership.md).
    const adopt = dynamic ? [`  adoptExisting: true,`] : [];
    body.push(
      `// ${connectorComment(c)}`,
      // A variable only where a configuration refers to it: no unused names in the program.
      `${c.configuration ? `const ${c.variable} = ` : ""}new ${ns}.AddedConnector(${jsonLiteral(addedName)}, {`,
      `  connectorId: ${jsonLiteral(c.connectorId)},`,
      `  accountId,`,
      ...adopt,
      `});`,
    );
    if (c.configuration) {
      const { fields, held, secretName } = c.configuration;
      body.push(
        `new ${ns}.ConnectorConfiguration(${jsonLiteral(dynamic ? c.resource : c.configurationName)}, {`,
        `  connectorId: ${c.variable}.connectorId,`,
        `  accountId,`,
        ...adopt,
        // The plugin's import reads the service's own: a secretName written here would differ from nothing.
        ...(secretName && dynamic ? [`  secretName: ${jsonLiteral(secretName)},`] : []),
        ...(held.length > 0 ? [`  heldByService: ${jsonLiteral(held)},`] : []),
        `  secretConfig: {`,
        ...fields.map((f) => `    ${entry(f, (key) => `config.requireSecret(${jsonLiteral(key)})`)},`),
        `  },`,
        `});`,
      );
    }
    body.push("");
  }
  const then = dynamic
    ? [
        "Then `pulumi up` takes every connector over without adding it again, and writes each",
        "configuration once. Once adopted, deleting a resource here removes the connector.",
      ]
    : IMPORT_THEN;
  const header = [
    ...headerLines(plan, "ts", then).map((line) => `// ${line}`),
    `import * as pulumi from "@pulumi/pulumi";`,
    dynamic
      ? `import * as ec from "pulumi-embedded-connectors";`
      : `import { embedded } from "pulumi-embedded-connectors";`,
    ``,
    `const config = new pulumi.Config();`,
    `const accountId = ${jsonLiteral(plan.accountId)};`,
    ``,
  ];
  return `${[...header, ...body].join("\n").trimEnd()}\n`;
}
