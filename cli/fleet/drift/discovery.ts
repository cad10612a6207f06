// Discovery: what the fleet's sub-accounts hold that no stack manages, and what the fleet's files
// name that has no stack. The service's specification shows no list of sub-accounts (nor any
// record of one beyond its id), so discovery cannot find a sub-account the fleet does not know
// of; it finds:
// - per sub-account a stack names, the connectors added there that no stack's state holds: from
//   the listing the drift check's reads of that sub-account already made (the provider's
//   snapshot: no extra request; a stack with nothing to read would cost one listing, and is
//   left out instead). The listing is proven complete or refused (the client's pagination
//   rules), and a connector it holds is there: "unmanaged" is never concluded from an absence;
// - the sub-accounts of the accounts file (`--accounts`, fleet adopt's format) that no stack
//   file names, and the customers of customers.json that no stack file names.
// A sub-account two stacks name is judged only when both were checked from their checkpoint in
// this run; else the report says why it was not.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { parseMapping } from "../../../provider/project/pulumi-project";
import { readAdoptList } from "../adopt-input";
import { stackFileName, type FleetProject } from "../project";
import type { DriftSections, StackReport, UnmanagedConnector } from "../report";

/** One sub-account of a stack as the drift check listed it (or why it could not). */
export interface SubAccountListing {
  accountId: string;
  listed?: { connectorId: string; name: string }[];
  error?: string;
  /** The connector ids the stack's state holds in it. */
  managed: string[];
}

export interface StackFile {
  accountId?: string;
  customer?: string;
}

/** Each stack file's sub-account and customer (`<project>:accountId`, `<project>:customer`). */
export async function readStackFiles(project: FleetProject): Promise<Map<string, StackFile>> {
  const files = new Map<string, StackFile>();
  for (const stack of project.stacks) {
    const file = path.join(project.dir, stackFileName(stack));
    try {
      const config = (parseMapping(await fs.readFile(file, "utf8"), file).config ?? {}) as Record<string, unknown>;
      const text = (key: string) => {
        const v = config[`${project.name}:${key}`];
        return typeof v === "string" ? v : undefined;
      };
      files.set(stack, { accountId: text("accountId"), customer: text("customer") });
    } catch {
      files.set(stack, {}); // its own run reports the file; discovery just cannot place it
    }
  }
  return files;
}

/** customers.json's customers beside Pulumi.yaml (the program's default file), if there is one. */
async function customersOf(dir: string): Promise<string[]> {
  try {
    const parsed = JSON.parse(await fs.readFile(path.join(dir, "customers.json"), "utf8")) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? Object.keys(parsed) : [];
  } catch {
    return [];
  }
}

export interface DiscoveryInput {
  project: FleetProject;
  stackFiles: Map<string, StackFile>;
  /** Each stack the fast path checked, with its sub-accounts as listed. */
  listings: Map<string, SubAccountListing[]>;
  /** --accounts FILE. */
  accountsFile?: string;
}

/** The reports with their unmanaged connectors (or why none were looked for), and the fleet-wide section. */
export async function discover(
  reports: StackReport[],
  input: DiscoveryInput,
): Promise<{ stacks: StackReport[]; section: DriftSections["discovery"] }> {
  const stacksOfAccount = new Map<string, string[]>();
  const note = (accountId: string, stack: string) =>
    stacksOfAccount.set(accountId, [...new Set([...(stacksOfAccount.get(accountId) ?? []), stack])]);
  for (const [stack, f] of input.stackFiles) if (f.accountId) note(f.accountId, stack);
  for (const [stack, ls] of input.listings) for (const l of ls) note(l.accountId, stack);
  const managed = new Map<string, Set<string>>();
  for (const ls of input.listings.values())
    for (const l of ls) managed.set(l.accountId, new Set([...(managed.get(l.accountId) ?? []), ...l.managed]));

  const stacks = reports.map((r): StackReport => {
    const customer = input.stackFiles.get(r.stack)?.customer;
    const base = { ...r, ...(customer ? { customer } : {}) };
    const ls = input.listings.get(r.stack);
    if (!ls) {
      const why =
        r.status === "failed"
          ? "the stack's check failed"
          : r.checkedBy === "engine"
            ? "checked by the engine (discovery reads the listing the fast path's reads made)"
            : "the stack holds no connector to read";
      return { ...base, discoveryNotRun: why };
    }
    const unmanaged: UnmanagedConnector[] = [];
    const problems: string[] = [];
    for (const l of ls) {
      const unchecked = (stacksOfAccount.get(l.accountId) ?? []).filter((s) => !input.listings.has(s));
      if (l.error) problems.push(`sub-account ${l.accountId}: its listing failed: ${l.error}`);
      else if (unchecked.length > 0)
        problems.push(
          `sub-account ${l.accountId} is also ${unchecked.join(", ")}'s, not checked from its checkpoint in this run`,
        );
      else
        for (const c of l.listed ?? [])
          if (!managed.get(l.accountId)?.has(c.connectorId))
            unmanaged.push({ accountId: l.accountId, connectorId: c.connectorId, name: c.name });
    }
    unmanaged.sort((a, b) => a.connectorId.localeCompare(b.connectorId));
    return { ...base, unmanaged, ...(problems.length > 0 ? { discoveryNotRun: problems.join("; ") } : {}) };
  });

  const named = new Set([...input.stackFiles.values()].map((f) => f.accountId).filter(Boolean));
  const accounts = input.accountsFile ? await readAdoptList(input.accountsFile) : [];
  const usedCustomers = new Set([...input.stackFiles.values()].map((f) => f.customer).filter(Boolean));
  return {
    stacks,
    section: {
      enabled: true,
      subAccountsWithoutStack: accounts
        .filter((a) => !named.has(a.accountId))
        .map((a) => ({ accountId: a.accountId, ...(a.customer ? { customer: a.customer } : {}), stack: a.stack })),
      customersWithoutStack: (await customersOf(input.project.dir)).filter((c) => !usedCustomers.has(c)),
    },
  };
}
