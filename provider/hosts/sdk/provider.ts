// The explicit provider of the plugin `embedded`: one customer's credentials and defaults, so
// that one program can manage the sub-accounts of several customers.
import * as pulumi from "@pulumi/pulumi";
import { secretKeys } from "../../schema/property";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION } from "../../schema/plugin-release";
import { SETTINGS } from "../../settings/resolve";
import type { ProviderArgs } from "../../schema/resource-types";

export type { ProviderArgs };

/**
 * The provider `embedded` with its own settings (`pulumi:providers:embedded`). Pass it as the
 * `provider` option of the plugin's resources and functions; without one they use the default
 * provider, configured by the stack config `embedded:*`.
 */
export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs = {}, opts: pulumi.ResourceOptions = {}) {
    super("embedded", name, settingsProps(args), withPluginOptions(opts));
  }
}

/** The provider's inputs, each setting that SETTINGS says is secret wrapped as one. */
function settingsProps(args: ProviderArgs): pulumi.Inputs {
  const props: pulumi.Inputs = { ...args };
  for (const name of secretKeys(SETTINGS)) {
    if (props[name] !== undefined) props[name] = pulumi.secret(props[name]);
  }
  return props;
}

/**
 * Options of the plugin's resources, functions and providers: its version and where the engine
 * downloads it from (as a generated SDK's), unless the caller says otherwise.
 */
export function withPluginOptions<T extends pulumi.ResourceOptions | pulumi.InvokeOptions>(opts: T | undefined): T {
  return { version: PLUGIN_VERSION, pluginDownloadURL: PLUGIN_DOWNLOAD_URL, ...opts } as T;
}
