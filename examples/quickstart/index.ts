// Quickstart: find a source and a destination connector by name, add both to the
// sub-account of `embedded:accountId`, configure both from stack secrets, and export
// what the service says about them.
//
//   pulumi config set embedded:baseUrl http://127.0.0.1:8787
//   pulumi config set embedded:clientId demo-client
//   pulumi config set --secret embedded:clientSecret demo-secret
//   pulumi config set embedded:accountId 239a5bbdbe543163
//   pulumi config set --secret s3SecretAccessKey      # prompts for the value
//   pulumi config set --secret facebookClientSecret   # prompts for the value
//   pulumi up
import * as pulumi from "@pulumi/pulumi";
import * as ec from "pulumi-embedded-connectors";

const config = new pulumi.Config();

// Lookups run at preview time: a typo in a name fails here, listing near matches.
const s3 = ec.findConnectorOutput({ name: "Amazon S3", supportedType: "Source" });
const facebook = ec.findConnectorOutput({ name: "Facebook Custom Audiences", supportedType: "Destination" });

const source = new ec.AddedConnector("s3-source", { connectorId: s3.connectorId });
const destination = new ec.AddedConnector("facebook-destination", { connectorId: facebook.connectorId });

// Passing `source.connectorId` (an output) orders the configuration after the add.
const sourceConfiguration = new ec.ConnectorConfiguration("s3-source", {
  connectorId: source.connectorId,
  secretConfig: {
    bucket: config.get("s3Bucket") ?? "quickstart-exports",
    accessKeyId: config.get("s3AccessKeyId") ?? "AKIAQUICKSTARTDEMO",
    region: config.get("s3Region") ?? "eu-west-1",
    fileFormats: ["csv", "parquet"],
    secretAccessKey: config.requireSecret("s3SecretAccessKey"),
  },
});

const destinationConfiguration = new ec.ConnectorConfiguration("facebook-destination", {
  connectorId: destination.connectorId,
  secretConfig: {
    adAccountId: config.get("facebookAdAccountId") ?? "act_1001",
    apiVersion: "v20.0",
    permissions: ["read", "audiences"],
    clientSecret: config.requireSecret("facebookClientSecret"),
  },
});

export const accountId = source.accountId;
export const connectors = [source, destination].map((c) => ({
  connectorId: c.connectorId,
  name: c.name,
  supportedType: c.supportedType,
  srcConnections: c.srcConnections,
  destConnections: c.destConnections,
}));
// AddedConnector.configured is as of the add (before the configuration was written);
// the ConnectorConfiguration's `configured` is what the service answered to the write.
// Its `values` are left out: they are a secret, and would make this whole output one.
export const configurations = [sourceConfiguration, destinationConfiguration].map((c) => ({
  connectorId: c.connectorId,
  configured: c.configured,
  lastUpdated: c.lastUpdated,
}));
