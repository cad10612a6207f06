// `generate --language yaml`: the Pulumi YAML program (Pulumi.yaml; the plugin's resources by
// their type tokens), adopted with no change by the import file written beside it. Pulumi YAML
// reads more than YAML does: every string is an interpolation (`${…}` is an expression, `$$` a
// `$`), and a key starting `fn::` calls a function. So a value of the service is a JSON-quoted
// string with each `$` doubled, and a field id is written only when it is a plain word.
import { escapeLineBreaks } from "../fleet/yaml";
import { connectorComment, headerLines, type AdoptionPlan, type ConnectorPlan, type LiteralValue } from "./model";
import { IMPORT_THEN } from "./import-file";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION } from "../../provider/schema/plugin-release";

/**
 * Each resource names the plugin's version and release URL, as the YAML recipe does
 * (docs/installation-configuration.md): Pulumi YAML has no SDK to name them, and without them an
 * engine whose plugin cache lacks `embedded` looks for it under pulumi/pulumi-embedded.
 */
const PLUGIN_OPTIONS = [
  "    options:",
  `      version: ${PLUGIN_VERSION}`,
  `      pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL}`,
];

/** A literal string in Pulumi YAML: JSON-quoted (valid YAML), `$` doubled so no `${` is an expression. */
export function yamlString(text: string): string {
  return escapeLineBreaks(JSON.stringify(text.replace(/\$/g, () => "$$")));
}

function yamlValue(value: LiteralValue): string {
  if (typeof value === "number") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(yamlString).join(", ")}]`;
  return yamlString(value);
}

/** A field id as a mapping key: a plain word only (no `$`, no `fn::`, nothing YAML reads otherwise). */
function fieldKey(c: ConnectorPlan, id: string): string {
  if (/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(id)) return id;
  throw new Error(
    `connector ${c.connectorId} has a field id ${JSON.stringify(id)} that a Pulumi YAML program cannot name as ` +
      "written (only letters, digits, `_`, `.` and `-` are safe): nothing was written; generate this sub-account " +
      "in another language (--language ts|python|go)",
  );
}

export function renderYaml(plan: AdoptionPlan, project: string): string {
  const config = plan.secrets.flatMap((s) => [`  ${s.key}:`, "    type: string", "    secret: true"]);
  const resources: string[] = [];
  for (const c of plan.connectors) {
    resources.push(
      `  # ${connectorComment(c)}`,
      `  ${c.variable}:`,
      "    type: embedded:index:AddedConnector",
      ...PLUGIN_OPTIONS,
      "    properties:",
      `      connectorId: ${yamlString(c.connectorId)}`,
      `      accountId: ${yamlString(plan.accountId)}`,
    );
    if (!c.configuration) continue;
    const { fields, held } = c.configuration;
    resources.push(
      `  ${c.configurationName}:`,
      "    type: embedded:index:ConnectorConfiguration",
      ...PLUGIN_OPTIONS,
      "    properties:",
      `      connectorId: \${${c.variable}.connectorId}`,
      `      accountId: ${yamlString(plan.accountId)}`,
      ...(held.length > 0 ? [`      heldByService: [${held.map(yamlString).join(", ")}]`] : []),
      ...(fields.length > 0 ? ["      secretConfig:"] : ["      secretConfig: {}"]),
      ...fields.map(
        (f) => `        ${fieldKey(c, f.id)}: ${"secretKey" in f ? `\${${f.secretKey}}` : yamlValue(f.literal)}`,
      ),
    );
  }
  const lines = [
    ...headerLines(plan, "yaml", IMPORT_THEN).map((line) => `# ${line}`),
    `name: ${project}`,
    "runtime: yaml",
    ...(config.length > 0 ? ["config:", ...config] : []),
    ...(resources.length > 0 ? ["resources:", ...resources] : []),
  ];
  return `${lines.join("\n")}\n`;
}
