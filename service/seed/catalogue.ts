// Builds the deterministic catalogue from the seed rows: ids from hashes of the
// names, and secret configurations whose fields use every descriptor type.
import type { CatalogueConnector } from "../domain/catalogue";
import { stableId } from "../domain/ids";
import type { Strict } from "../../contract/views";
import { SEED_ROWS, type SeedRow } from "./connectors";

export type { CatalogueConnector } from "../domain/catalogue";

function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/(^-|-$)/g, "");
}

type Kind = "oauth" | "storage" | "apiKey";

function kindOf(row: SeedRow): Kind {
  const platformType = row[5];
  if (platformType === "Cloud Storage Provider" || platformType === "Media Management System") return "storage";
  if (
    platformType === "Social Media Platform" ||
    platformType === "Demand-Side Platform (DSP)" ||
    platformType === "Supply-Side Platform (SSP)" ||
    platformType === "CRM Platform"
  )
    return "oauth";
  return "apiKey";
}

const text = (id: string, label: string, required: boolean, description?: string): Strict<"FieldDescriptor"> => ({
  id,
  label,
  type: "Text",
  required,
  readonly: false,
  ...(description ? { description } : {}),
});
const password = (id: string, label: string): Strict<"FieldDescriptor"> => ({
  id,
  label,
  type: "Password",
  required: true,
  readonly: false,
  description: "stored encrypted; never returned",
});
const select = (
  id: string,
  label: string,
  options: string[],
  required: boolean,
  multi = false,
): Strict<"FieldDescriptor"> => ({
  id,
  label,
  type: multi ? "Multi-Select" : "Select",
  required,
  readonly: false,
  options,
});
const number = (id: string, label: string, min: number, max: number, required: boolean): Strict<"FieldDescriptor"> => ({
  id,
  label,
  type: "Number",
  required,
  readonly: false,
  min,
  max,
});
const date = (id: string, label: string): Strict<"FieldDescriptor"> => ({
  id,
  label,
  type: "Date",
  required: false,
  readonly: false,
  description: "YYYY-MM-DD",
});
const fixed = (id: string, label: string, value: string): Strict<"FieldDescriptor"> => ({
  id,
  label,
  type: "Text",
  required: false,
  readonly: true,
  value,
});

function secretFields(kind: Kind, slug: string): Strict<"FieldDescriptor">[] {
  switch (kind) {
    case "oauth":
      return [
        text("adAccountId", "Ad account id", true, "the account on the platform"),
        password("clientSecret", "Client secret"),
        select("apiVersion", "API version", ["v18.0", "v19.0", "v20.0"], true),
        select("permissions", "Permissions", ["read", "write", "audiences", "conversions"], false, true),
        number("dailyUploadLimit", "Daily upload limit", 1, 100000, false),
        date("tokenIssuedOn", "Token issued on"),
        fixed("authEndpoint", "Authorization endpoint", `https://auth.${slug}.example.com/oauth2`),
      ];
    case "storage":
      return [
        text("bucket", "Bucket or container", true),
        text("accessKeyId", "Access key id", true),
        password("secretAccessKey", "Secret access key"),
        select("region", "Region", ["us-east-1", "eu-west-1", "ap-southeast-2"], true),
        select("fileFormats", "File formats", ["csv", "json", "parquet", "avro"], false, true),
        number("maxFileSizeMb", "Largest file (MB)", 1, 5120, false),
        date("startDate", "Start date"),
        fixed("endpoint", "Service endpoint", `https://storage.${slug}.example.com`),
      ];
    case "apiKey":
      return [
        password("apiKey", "API key"),
        text("workspace", "Workspace", true),
        select("dataCenter", "Data center", ["US", "EU", "APAC"], true),
        select("eventTypes", "Event types", ["page", "track", "identify", "purchase"], false, true),
        number("batchSize", "Batch size", 1, 10000, true),
        date("backfillFrom", "Backfill from"),
        fixed("apiBaseUrl", "API base URL", `https://api.${slug}.example.com/v1`),
      ];
  }
}

function connector(row: SeedRow, index: number): CatalogueConnector {
  const [name, platform, supportedType, dataType, dataTypeCategory, platformType] = row;
  const slug = slugOf(name);
  const side = supportedType === "Source" ? "source" : "destination";
  return {
    connectorId: stableId("connector", name),
    platformId: stableId("platform", platform),
    name,
    logo: `https://logos.example.com/${slugOf(platform)}.svg`,
    dataType,
    dataTypeCategory,
    platformType,
    supportedType,
    // Some connectors have no documentation pages, as the specification allows.
    ...(index % 5 === 4 ? {} : { docUrl: `https://docs.example.com/connectors/${slug}` }),
    ...(index % 7 === 6 ? {} : { overviewUrl: `https://www.example.com/integrations/${slug}` }),
    integrated: index % 9 !== 8,
    status: index % 11 === 10 ? 2 : 1,
    transfer: supportedType === "Source" || index % 3 !== 0,
    description: `${name}: ${dataType} ${side} on ${platform} (${dataTypeCategory}).`,
    secretConfiguration: {
      configurationId: stableId("secret-configuration", name),
      name: `${name} credentials`,
      fields: secretFields(kindOf(row), slug),
    },
    connectionConfig: [
      {
        configurationId: stableId("connection-configuration", name),
        name: "Sync settings",
        configuration: [
          { ...select("frequency", "Sync frequency", ["hourly", "daily", "weekly"], true), value: "daily" },
          { ...text("timezone", "Time zone", false), value: "UTC" },
        ],
      },
    ],
  };
}

export const CATALOGUE: readonly CatalogueConnector[] = SEED_ROWS.map(connector);

/**
 * The catalogue plus `extra` synthetic API-key sources ("Synthetic Source 0001", …), for
 * benchmarks that add hundreds of connectors to one sub-account (the seeded catalogue holds
 * fewer). Ids are hashes of the names, as for the seeded ones, so they are stable too.
 */
export function catalogueWithExtra(extra: number): readonly CatalogueConnector[] {
  if (extra <= 0) return CATALOGUE;
  const rows: SeedRow[] = Array.from({ length: extra }, (_, i) => [
    `Synthetic Source ${String(i + 1).padStart(4, "0")}`,
    "Synthetic",
    "Source",
    "events",
    "events",
    "Customer Data Platform (CDP)",
  ]);
  return [...CATALOGUE, ...rows.map((row, i) => connector(row, SEED_ROWS.length + i))];
}
