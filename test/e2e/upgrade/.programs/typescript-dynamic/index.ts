// The upgrade fixtures' program of the dynamic resources (test/e2e/upgrade/README.md): what a
// user wrote against an earlier version of the package and keeps, unchanged, when upgrading it.
// Two connectors added, one configured with a Text, a Select, a Multi-Select, a Number, a Date
// and a Password from secret stack config.
import * as pulumi from "@pulumi/pulumi";
import * as ec from "pulumi-embedded-connectors";

const config = new pulumi.Config();

const s3 = ec.findConnectorOutput({ name: "Amazon S3", supportedType: "Source" });
const facebook = ec.findConnectorOutput({ name: "Facebook Custom Audiences", supportedType: "Destination" });

const source = new ec.AddedConnector("s3Source", { connectorId: s3.connectorId });
const destination = new ec.AddedConnector("facebookDestination", { connectorId: facebook.connectorId });

const configuration = new ec.ConnectorConfiguration("s3SourceConfiguration", {
  connectorId: source.connectorId,
  secretConfig: {
    bucket: "acme-exports",
    accessKeyId: "AKIAUPGRADEEXAMPLE",
    region: "eu-west-1",
    fileFormats: ["csv", "parquet"],
    maxFileSizeMb: 512,
    startDate: "2026-01-15",
    secretAccessKey: config.requireSecret("s3SecretAccessKey"),
  },
});

export const sourceConnectorId = source.connectorId;
export const destinationConnectorId = destination.connectorId;
export const sourceConfigured = configuration.configured;
