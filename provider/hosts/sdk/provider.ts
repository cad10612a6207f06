// The explicit provider of the plugin `embedded`: one customer's credentials and defaults, so
// that one program can manage the sub-accounts of several customers.
import * as pulumi from "@pulumi/pulumi";
import { secretKeys } from "../../schema/property";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION } from "../plugin/version";
import { SETTINGS } from "../../settings/resolve";

/** An explicit provider's settings; each unset one falls back to its EMBEDDED_* environment variable. */
export interface ProviderArgs {
  /** Base URL of the service: `https://`, or `http://` only to a loopback host. Default: EMBEDDED_BASE_URL. */
  baseUrl?: pulumi.Input<string>;
  /** OAuth client id. Default: EMBEDDED_CLIENT_ID. */
  clientId?: pulumi.Input<string>;
  /** OAuth client secret; always stored as a secret. Default: EMBEDDED_CLIENT_SECRET. */
  clientSecret?: pulumi.Input<string>;
  /** Default sub-account of the resources and functions that use this provider. Default: EMBEDDED_ACCOUNT_ID, else none. */
  accountId?: pulumi.Input<string>;
  /** Longest wait for an answer's headers or between two chunks of its body, ms. Default: 30000. */
  timeoutMs?: pulumi.Input<number>;
  /** Retries of a call that failed with 5xx or no answer. Default: 5. */
  maxRetries?: pulumi.Input<number>;
  /** How long one call may wait in all for 429 / 503 with Retry-After, ms. Default: 600000. */
  retryTimeoutMs?: pulumi.Input<number>;
  /** Requests in flight per process, base URL and client id (one customer's requests never wait for another's). Default: 8. */
  concurrency?: pulumi.Input<number>;
  /** Longest a create waits for others to share its Add call, ms; 0: no batching. Default: 500. */
  addWindowMs?: pulumi.Input<number>;
  /** PEM certificate of a private CA. Default: the system's CAs. */
  caCertificate?: pulumi.Input<string>;
  /**
   * Path of a JSON or YAML service profile, so that each customer's provider may read its own
   * wire (docs/service-profile.md). Default: EMBEDDED_SERVICE_PROFILE, else the built-in profile.
   */
  serviceProfile?: pulumi.Input<string>;
}

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
