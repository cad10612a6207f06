// `generate --language go`: the Go program (the SDK …/sdk/go/embedded, the plugin's resources),
// adopted with no change by the import file written beside it. Names are the plan's (letters and
// digits, never a Go keyword); service text is in `//` comments made one line, values are JSON
// literals (valid Go string and number literals). Go refuses what is unused: a variable only for a
// configured connector, `cfg` and its import only where a Password is read from config.
import { connectorComment, headerLines, jsonLiteral, type AdoptionPlan, type LiteralValue } from "./model";
import { IMPORT_THEN } from "./import-file";

const SDK = "github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go/embedded";

function goValue(value: LiteralValue): string {
  if (typeof value === "number") return `pulumi.Float64(${jsonLiteral(value)})`;
  if (Array.isArray(value)) return `pulumi.ToStringArray([]string{${value.map((v) => jsonLiteral(v)).join(", ")}})`;
  return `pulumi.String(${jsonLiteral(value)})`;
}

export function renderGo(plan: AdoptionPlan): string {
  const reads = plan.secrets.length > 0;
  const body: string[] = [];
  for (const c of plan.connectors) {
    const added = `embedded.NewAddedConnector(ctx, ${jsonLiteral(c.variable)}, &embedded.AddedConnectorArgs{`;
    body.push(
      `\t\t// ${connectorComment(c)}`,
      c.configuration ? `\t\t${c.variable}, err := ${added}` : `\t\tif _, err := ${added}`,
      `\t\t\tConnectorId: pulumi.String(${jsonLiteral(c.connectorId)}),`,
      "\t\t\tAccountId:   pulumi.String(accountId),",
      c.configuration ? "\t\t})\n\t\tif err != nil {" : "\t\t}); err != nil {",
      "\t\t\treturn err",
      "\t\t}",
    );
    if (c.configuration) {
      const { fields, held } = c.configuration;
      body.push(
        `\t\tif _, err := embedded.NewConnectorConfiguration(ctx, ${jsonLiteral(c.configurationName)}, &embedded.ConnectorConfigurationArgs{`,
        `\t\t\tConnectorId: ${c.variable}.ConnectorId,`,
        "\t\t\tAccountId:   pulumi.String(accountId),",
        ...(held.length > 0
          ? [`\t\t\tHeldByService: pulumi.ToStringArray([]string{${held.map((id) => jsonLiteral(id)).join(", ")}}),`]
          : []),
        "\t\t\tSecretConfig: pulumi.Map{",
        ...fields.map(
          (f) =>
            `\t\t\t\t${jsonLiteral(f.id)}: ${"secretKey" in f ? `cfg.RequireSecret(${jsonLiteral(f.secretKey)})` : goValue(f.literal)},`,
        ),
        "\t\t\t},",
        "\t\t}); err != nil {",
        "\t\t\treturn err",
        "\t\t}",
      );
    }
  }
  const lines = [
    ...headerLines(plan, "go", IMPORT_THEN).map((line) => `// ${line}`),
    "package main",
    "",
    "import (",
    `\t${jsonLiteral(SDK)}`,
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ...(reads ? ['\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'] : []),
    ")",
    "",
    `const accountId = ${jsonLiteral(plan.accountId)}`,
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...(reads ? ['\t\tcfg := config.New(ctx, "")'] : []),
    ...body,
    "\t\treturn nil",
    "\t})",
    "}",
  ];
  return `${lines.join("\n")}\n`;
}
