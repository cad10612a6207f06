// One SubAccountBaseline per file of accounts/: adding a sub-account, or changing one,
// is a pull request that touches one small file, and `pulumi preview` shows its effect.
//
// Secret values never live in those files: the secret of field <field> of connector
// <key> for accounts/<file>.json is the stack secret `<file>-<key>-<field>`, e.g.
//   pulumi config set --secret acme-s3-secretAccessKey
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { SubAccountBaseline, type BaselineConnector } from "./baseline";

interface AccountFile {
  accountId: string;
  values?: Record<string, Record<string, string | number | string[]>>;
}

const config = new pulumi.Config();
const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, "utf8")) as T;

const baseline = readJson<{ connectors: BaselineConnector[] }>(path.join(__dirname, "connectors.json"));
const accountsDir = path.join(__dirname, "accounts");
const files = fs
  .readdirSync(accountsDir)
  .filter((f) => f.endsWith(".json"))
  .sort();

const applied: Record<string, SubAccountBaseline> = {};
for (const file of files) {
  const key = path.basename(file, ".json");
  const account = readJson<AccountFile>(path.join(accountsDir, file));
  const secrets: Record<string, Record<string, pulumi.Output<string>>> = {};
  for (const spec of baseline.connectors) {
    secrets[spec.key] = {};
    for (const field of spec.secretFields ?? []) {
      secrets[spec.key][field] = config.requireSecret(`${key}-${spec.key}-${field}`);
    }
  }
  applied[key] = new SubAccountBaseline(key, {
    accountId: account.accountId,
    connectors: baseline.connectors,
    values: account.values,
    secrets,
  });
}

export const subAccounts = Object.fromEntries(
  Object.entries(applied).map(([key, b]) => [key, { connectorIds: b.connectorIds, configured: b.configured }]),
);
