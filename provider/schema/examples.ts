// The example of each resource and function in the schema's descriptions, in TypeScript, Python,
// Go and YAML, so that every SDK's docs show it (Pulumi's generators keep the code blocks of their
// own language) and docs/reference/ too. Each is an excerpt, verbatim but for its indentation,
// of an example program the e2e runs (examples/…): provider/schema/examples.test.ts checks
// that it still is.

/** An excerpt of a program: the program's path in the repository, and the code. */
export interface Excerpt {
  readonly program: string;
  readonly code: string;
}

export interface Example {
  readonly title: string;
  readonly typescript: Excerpt;
  readonly python: Excerpt;
  readonly go: Excerpt;
  readonly yaml: Excerpt;
}

/** The languages of an example, in the order the docs show them. */
export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"] as const;

export const EXAMPLES: Readonly<Record<string, Example>> = {
  findConnector: {
    title: "Look a connector up by name",
    typescript: {
      program: "provider/fleet/program.ts",
      code: "// Names, not ids, in the reviewed file: a typo fails at preview, listing near matches.\nconst found = embedded.findConnectorOutput({ name: spec.name, supportedType: spec.supportedType }, { provider });",
    },
    python: {
      program: "examples/python-sub-account/__main__.py",
      code: '# Lookups run at preview: a typo in a name fails here, listing near matches.\ns3 = embedded.find_connector(name="Amazon S3", supported_type="Source")',
    },
    go: {
      program: "examples/go-sub-account/main.go",
      code: '// Lookups run at preview: a typo in a name fails here, listing near matches.\ns3, err := embedded.FindConnector(ctx, &embedded.FindConnectorArgs{Name: "Amazon S3", SupportedType: "Source"})\nif err != nil {\n\treturn err\n}',
    },
    yaml: {
      program: "examples/yaml-sub-account/Pulumi.yaml",
      code: "variables:\n  # Lookups run at preview: a typo in a name fails here, listing near matches.\n  s3:\n    fn::invoke:\n      function: embedded:index:findConnector\n      arguments:\n        name: Amazon S3\n        supportedType: Source",
    },
  },
  AddedConnector: {
    title: "Add a connector looked up by name to the sub-account",
    typescript: {
      program: "provider/fleet/program.ts",
      code: "// Names, not ids, in the reviewed file: a typo fails at preview, listing near matches.\nconst found = embedded.findConnectorOutput({ name: spec.name, supportedType: spec.supportedType }, { provider });\nconst added = new embedded.AddedConnector(key, { connectorId: found.connectorId }, { provider, ...imported });",
    },
    python: {
      program: "examples/python-sub-account/__main__.py",
      code: '# The sub-account of the stack config (`embedded:baseUrl`, `embedded:clientId`,\n# `embedded:clientSecret`, `embedded:accountId`): the default provider.\ns3_source = embedded.AddedConnector("s3Source", connector_id=s3.connector_id)',
    },
    go: {
      program: "examples/go-sub-account/main.go",
      code: '// The sub-account of the stack config (`embedded:baseUrl`, `embedded:clientId`,\n// `embedded:clientSecret`, `embedded:accountId`): the default provider.\ns3Source, err := embedded.NewAddedConnector(ctx, "s3Source", &embedded.AddedConnectorArgs{ConnectorId: pulumi.String(s3.ConnectorId)})\nif err != nil {\n\treturn err\n}',
    },
    yaml: {
      program: "examples/yaml-sub-account/Pulumi.yaml",
      code: "resources:\n  # The sub-account of the stack config (`embedded:baseUrl`, `embedded:clientId`,\n  # `embedded:clientSecret`, `embedded:accountId`): the default provider.\n  s3Source:\n    type: embedded:index:AddedConnector\n    properties:\n      connectorId: ${s3.connectorId}",
    },
  },
  ConnectorConfiguration: {
    title: "Configure an added connector, its Password from secret config",
    typescript: {
      program: "provider/fleet/program.ts",
      code: "new embedded.ConnectorConfiguration(\n  key,\n  { connectorId: added.connectorId, secretConfig, ...(held.length > 0 ? { heldByService: held } : {}) },\n  { provider, ...imported },\n);",
    },
    python: {
      program: "examples/python-sub-account/__main__.py",
      code: '# `s3_source.connector_id` (an output) orders the configuration after the add. The whole\n# secret_config is stored as a secret; the Password fields come from secret config.\ns3_configuration = embedded.ConnectorConfiguration(\n    "s3SourceConfiguration",\n    connector_id=s3_source.connector_id,\n    secret_config={\n        "bucket": "acme-exports",\n        "accessKeyId": "AKIAPYTHONEXAMPLE",\n        "region": "eu-west-1",\n        "fileFormats": ["csv", "parquet"],\n        "maxFileSizeMb": 512,\n        "secretAccessKey": config.require_secret("s3SecretAccessKey"),\n    },\n)',
    },
    go: {
      program: "examples/go-sub-account/main.go",
      code: '// s3Source.ConnectorId (an output) orders the configuration after the add. The whole\n// SecretConfig is stored as a secret; the Password fields come from secret config.\ns3Configuration, err := embedded.NewConnectorConfiguration(ctx, "s3SourceConfiguration", &embedded.ConnectorConfigurationArgs{\n\tConnectorId: s3Source.ConnectorId,\n\tSecretConfig: pulumi.Map{\n\t\t"bucket":          pulumi.String("acme-exports"),\n\t\t"accessKeyId":     pulumi.String("AKIAGOEXAMPLE"),\n\t\t"region":          pulumi.String("eu-west-1"),\n\t\t"fileFormats":     pulumi.ToStringArray([]string{"csv", "parquet"}),\n\t\t"maxFileSizeMb":   pulumi.Int(512),\n\t\t"secretAccessKey": cfg.RequireSecret("s3SecretAccessKey"),\n\t},\n})\nif err != nil {\n\treturn err\n}',
    },
    yaml: {
      program: "examples/yaml-sub-account/Pulumi.yaml",
      code: "# `${s3Source.connectorId}` (an output) orders the configuration after the add.\ns3SourceConfiguration:\n  type: embedded:index:ConnectorConfiguration\n  properties:\n    connectorId: ${s3Source.connectorId}\n    secretConfig:\n      bucket: acme-exports\n      accessKeyId: AKIAYAMLEXAMPLE\n      region: eu-west-1\n      fileFormats: [csv, parquet]\n      maxFileSizeMb: 512\n      secretAccessKey: ${s3SecretAccessKey}",
    },
  },
};

/** A description with its example appended in Pulumi's docs shortcodes (none for a name without one). */
export function withExample(name: string, description: string): string {
  const example = EXAMPLES[name];
  if (!example) return description;
  const blocks = EXAMPLE_LANGUAGES.map((language) => `\`\`\`${language}\n${example[language].code}\n\`\`\``);
  return [
    description,
    "",
    "{{% examples %}}",
    "## Example Usage",
    "{{% example %}}",
    `### ${example.title}`,
    "",
    blocks.join("\n"),
    "{{% /example %}}",
    "{{% /examples %}}",
  ].join("\n");
}
