// What `fleet adopt` takes: the existing sub-accounts, each with its customer (and, if given, its
// stack's name), and optionally where the Password fields the stacks hold come from.
//
//   accounts file, CSV: `accountId,customer[,stack]` a line (a header line naming accountId is
//                       skipped; `#` starts a comment); or JSON: [{ "accountId", "customer", "stack" }]
//   secrets file, JSON: { "<connector key or catalogue name>": { "<field>": { "config": k } | { "env": V } } }
//                       every Password field not named here is left to the service (heldByService)
import { promises as fs } from "node:fs";
import { ID_FORMAT, isId } from "../../contract/ids";
import { parseJson } from "../../provider/project/pulumi-project";
import type { SecretSource } from "./new";
import { isStackName } from "./project";

export interface AdoptEntry {
  accountId: string;
  /** A key of customers.json; none: the EMBEDDED_* credentials. */
  customer?: string;
  /** Default: `<customer>-<accountId>` (or the account id alone). */
  stack: string;
}

/** Connector key or catalogue name → Password field → its secret source. */
export type SecretMap = Record<string, Record<string, SecretSource>>;

function entryOf(raw: { accountId?: unknown; customer?: unknown; stack?: unknown }, where: string): AdoptEntry {
  const accountId = typeof raw.accountId === "string" ? raw.accountId.trim() : "";
  if (!isId(accountId)) throw new Error(`${where}: the account id must be a sub-account id, ${ID_FORMAT}`);
  const customer = typeof raw.customer === "string" && raw.customer.trim() !== "" ? raw.customer.trim() : undefined;
  const given = typeof raw.stack === "string" && raw.stack.trim() !== "" ? raw.stack.trim() : undefined;
  const stack = given ?? (customer ? `${customer}-${accountId}` : accountId);
  if (!isStackName(stack)) {
    throw new Error(`${where}: the stack name may hold only letters, digits, "-", "_" and "." (at most 100)`);
  }
  return { accountId, customer, stack };
}

/** Parses the accounts file (CSV or JSON); refuses a repeated stack or sub-account. */
export function parseAdoptList(text: string, file: string): AdoptEntry[] {
  let entries: AdoptEntry[];
  if (text.trimStart().startsWith("[")) {
    const parsed = parseJson(
      text,
      file,
      "a JSON array of { accountId, customer, stack }, or CSV lines accountId,customer,stack",
    );
    if (!Array.isArray(parsed)) throw new Error(`${file}: expected a JSON array of { accountId, customer, stack }`);
    entries = parsed.map((raw, i) => entryOf((raw ?? {}) as Record<string, unknown>, `${file}, entry ${i + 1}`));
  } else {
    entries = [];
    for (const [i, line] of text.split(/\r?\n/).entries()) {
      const content = line.replace(/#.*$/, "").trim();
      if (content === "" || (entries.length === 0 && /^accountId\s*,/i.test(content))) continue;
      const [accountId, customer, stack] = content.split(",").map((cell) => cell.trim());
      entries.push(entryOf({ accountId, customer, stack }, `${file}, line ${i + 1}`));
    }
  }
  for (const key of ["stack", "accountId"] as const) {
    const seen = new Set<string>();
    for (const entry of entries) {
      if (seen.has(entry[key])) throw new Error(`${file}: ${key} ${entry[key]} is listed twice`);
      seen.add(entry[key]);
    }
  }
  return entries;
}

export async function readAdoptList(file: string): Promise<AdoptEntry[]> {
  return parseAdoptList(await fs.readFile(file, "utf8"), file);
}

/** Parses the secrets file: sources only, never a value (a string where a source belongs is refused). */
export function parseSecretMap(text: string, file: string): SecretMap {
  const parsed = parseJson(text, file, "the sources of each connector's Password fields");
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error(
      `${file}: expected { "<connector>": { "<field>": { "config": "<key>" } | { "env": "<VARIABLE>" } } }`,
    );
  }
  for (const [connector, fields] of Object.entries(parsed as Record<string, unknown>)) {
    for (const [field, source] of Object.entries((fields ?? {}) as Record<string, unknown>)) {
      const s = source as { config?: unknown; env?: unknown } | null;
      const ok = s !== null && typeof s === "object" && (typeof s.config === "string" || typeof s.env === "string");
      if (!ok) {
        throw new Error(
          `${file}: connector "${connector}", field "${field}" must be { "config": "<secret config key>" } or { "env": "<VARIABLE>" }, never a value`,
        );
      }
    }
  }
  return parsed as SecretMap;
}

export async function readSecretMap(file: string): Promise<SecretMap> {
  return parseSecretMap(await fs.readFile(file, "utf8"), file);
}
