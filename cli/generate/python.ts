// `generate --language python`: the Python program (the SDK pulumi_embedded, the plugin's
// resources), adopted with no change by the import file written beside it. Names are the plan's
// (letters and digits); service text is in `#` comments made one line, values are JSON literals
// (valid Python literals).
import { connectorComment, headerLines, jsonLiteral, type AdoptionPlan } from "./model";
import { IMPORT_THEN } from "./import-file";

export function renderPython(plan: AdoptionPlan): string {
  const lines = [
    ...headerLines(plan, "python", IMPORT_THEN).map((line) => `# ${line}`),
    "import pulumi",
    "import pulumi_embedded as embedded",
    "",
    "config = pulumi.Config()",
    `accountId = ${jsonLiteral(plan.accountId)}`,
    "",
  ];
  for (const c of plan.connectors) {
    lines.push(
      `# ${connectorComment(c)}`,
      `${c.configuration ? `${c.variable} = ` : ""}embedded.AddedConnector(`,
      `    ${jsonLiteral(c.variable)},`,
      `    connector_id=${jsonLiteral(c.connectorId)},`,
      "    account_id=accountId,",
      ")",
    );
    if (c.configuration) {
      const { fields, held } = c.configuration;
      lines.push(
        "embedded.ConnectorConfiguration(",
        `    ${jsonLiteral(c.configurationName)},`,
        `    connector_id=${c.variable}.connector_id,`,
        "    account_id=accountId,",
        ...(held.length > 0 ? [`    held_by_service=${jsonLiteral(held)},`] : []),
        "    secret_config={",
        ...fields.map(
          (f) =>
            `        ${jsonLiteral(f.id)}: ${"secretKey" in f ? `config.require_secret(${jsonLiteral(f.secretKey)})` : jsonLiteral(f.literal)},`,
        ),
        "    },",
        ")",
      );
    }
    lines.push("");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
