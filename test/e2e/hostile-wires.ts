// The wires of the first-`up` test: what the
// local service speaks (a full profile) and what a user knows of it from its "docs" before
// running doctor (the methods and paths; the body fields a request sends, which no read reveals).
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadProfile, resolveProfile, type ResolvedProfile } from "../../contract/profile";

const PROFILES = path.resolve(__dirname, "../../../profiles");

/**
 * A third wire, of this test's own making, that no shipped profile describes: the sub-account in
 * the path under other nouns, lists as `{items, total}` paged with limit/offset, a refusal inside
 * a 2xx, and Add and Configure (a POST) with renamed body fields.
 */
export const THIRD_WIRE = {
  name: "third-wire",
  description: "integrations of a subaccount: sub-account in the path, renamed body fields, errors inside a 2xx",
  defaults: {
    paging: { style: "offset", offset: "offset", size: "limit" },
    list: { items: "items", total: "total", next: null },
  },
  operations: {
    getToken: { path: "/v3/auth/client-token" },
    listConnectors: { path: "/v3/subaccounts/{accountId}/catalog" },
    getConnector: { path: "/v3/subaccounts/{accountId}/catalog/{connectorId}" },
    addConnectors: {
      method: "POST",
      path: "/v3/subaccounts/{accountId}/integrations",
      fields: { connectorIds: "integrationIds" },
    },
    listAddedConnectors: { path: "/v3/subaccounts/{accountId}/integrations" },
    listSupportedConnectors: { path: "/v3/subaccounts/{accountId}/integrations/{connectorId}/pairs" },
    getConfiguration: { path: "/v3/subaccounts/{accountId}/integrations/{connectorId}/settings" },
    configure: {
      method: "POST",
      path: "/v3/subaccounts/{accountId}/integrations/{connectorId}/settings",
      fields: { configurationId: "settingsId", secretConfig: "values" },
    },
    removeConnector: { method: "DELETE", path: "/v3/subaccounts/{accountId}/integrations/{connectorId}" },
  },
  semantics: { errorStatusIn: "body" },
};

export interface Wire {
  name: string;
  /** What the local service speaks: a profile file or object. */
  served: string | Record<string, unknown>;
  /** The served profile resolved: the out-of-band client's wire. */
  truth: ResolvedProfile;
  /** What the user writes from the service's docs before doctor: undefined when the built-in paths are the service's. */
  docs?: Record<string, unknown>;
}

/** The methods and paths of a wire (and the body fields it renames): its "docs". */
function docsOf(truth: ResolvedProfile): Record<string, unknown> {
  const operations = Object.fromEntries(
    Object.values(truth.operations).map((op) => {
      const renamed = Object.fromEntries(Object.entries(op.fields).filter(([k, v]) => k !== v));
      const fields = ["addConnectors", "configure"].includes(op.operation) && Object.keys(renamed).length > 0;
      return [op.operation, { method: op.method, path: op.path, ...(fields ? { fields: renamed } : {}) }];
    }),
  );
  return { name: `${truth.name} (its docs)`, operations };
}

function wire(name: string, served: string | Record<string, unknown>, withDocs: boolean): Wire {
  const truth = typeof served === "string" ? loadProfile(served) : resolveProfile(served, name);
  return { name, served, truth, ...(withDocs ? { docs: docsOf(truth) } : {}) };
}

/** Each shipped profile served by the local service, and the third wire. */
export function wires(): Wire[] {
  return [
    wire("documented-conventions", path.join(PROFILES, "documented-conventions.yaml"), false),
    wire("account-in-path", path.join(PROFILES, "account-in-path.yaml"), true),
    wire("third-wire", THIRD_WIRE, true),
  ];
}

/**
 * The doctor commands of docs/hosted-service.md's first-up recipe (its `bash` block), as
 * arguments: the test runs these, so the page shows exactly what the test does.
 */
export function firstUpRecipe(): string[][] {
  const doc = readFileSync(path.resolve(__dirname, "../../../docs/hosted-service.md"), "utf8");
  const section = doc.slice(doc.indexOf("## 4. The first up"));
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .filter((line) => line.startsWith("npx pulumi-embedded-connectors doctor"))
    .map((line) => line.replace("npx pulumi-embedded-connectors doctor", "").trim().split(/\s+/).filter(Boolean));
}
