// The import file written beside a program on the plugin's resources: `pulumi import --file`
// takes every resource over by the names the program gives them, with no write to the service
// (`--generate-code=false`: the program is already written). The configuration imports without
// its values; the program declares them, so the next preview shows no change.
import type { AdoptionPlan } from "./model";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION } from "../../provider/schema/plugin-release";

/** The plugin's type tokens (never change: users' states name them). */
const ADDED_CONNECTOR = "embedded:index:AddedConnector";
const CONNECTOR_CONFIGURATION = "embedded:index:ConnectorConfiguration";

/** The import command, as the docs and every header give it. */
export const IMPORT_COMMAND = "pulumi import --file import.json --yes --generate-code=false --protect=false";

/** The header's closing lines of a program adopted by the import file. */
export const IMPORT_THEN = [
  `Then \`${IMPORT_COMMAND}\``,
  "adopts every resource, and `pulumi preview --expect-no-changes` passes. Once adopted, deleting",
  "a resource here removes the connector.",
];

interface ImportEntry {
  type: string;
  name: string;
  id: string;
  /** The plugin's version and release URL, for an engine whose plugin cache lacks it (beside what the program's SDK or options name). */
  version: string;
  pluginDownloadUrl: string;
}

/** What every entry names of the plugin, as the recipes do (docs/installation-configuration.md). */
const PLUGIN = { version: PLUGIN_VERSION, pluginDownloadUrl: PLUGIN_DOWNLOAD_URL };

/** `import.json`: one entry per resource of the program, named as the program names it. */
export function renderImportFile(plan: AdoptionPlan): string {
  const resources: ImportEntry[] = [];
  for (const c of plan.connectors) {
    const id = `${plan.accountId}/${c.connectorId}`;
    resources.push({ type: ADDED_CONNECTOR, name: c.variable, id, ...PLUGIN });
    if (c.configuration) resources.push({ type: CONNECTOR_CONFIGURATION, name: c.configurationName, id, ...PLUGIN });
  }
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}
