// Every provider setting, declared once: its stack config key, its environment variable, whether
// it is a secret, its type, default and meaning. settings/resolve.ts resolves them; the plugin's schema,
// the SDKs and the README take them from here. Pure (no @pulumi/pulumi import).
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_TIMEOUT_MS,
  DEFAULT_TIMEOUTS,
} from "../client/defaults";

/**
 * timeoutMs sets both of the client's waits, for an answer's headers and between two chunks of its
 * body: `satisfies` stops the build if the client's two defaults ever part.
 */
const DEFAULT_TIMEOUT_MS = DEFAULT_TIMEOUTS.headersMs satisfies typeof DEFAULT_TIMEOUTS.bodyMs;
/**
 * Default of `addWindowMs`. The engine hands creates over ~15–40 ms apart (BENCHMARKS.md), so
 * 500 ms lets a batch fill up to the engine's --parallel of 16 (a 4-CPU machine's default);
 * a lone create waits only the 60 ms idle cut, not the window.
 */
export const DEFAULT_ADD_WINDOW_MS = 500;

/**
 * Every setting: its stack config key, its environment variable, whether it is a secret, its
 * type and default, and what it means (the plugin's schema and the README take them from here).
 * The defaults the client also applies are the client's own (client/defaults.ts).
 */
export const SETTINGS = {
  baseUrl: {
    key: "embedded:baseUrl",
    env: "EMBEDDED_BASE_URL",
    secret: false,
    type: "string",
    description: "Base URL of the service. Required: `https://`, or `http://` only to a loopback host.",
  },
  clientId: {
    key: "embedded:clientId",
    env: "EMBEDDED_CLIENT_ID",
    secret: false,
    type: "string",
    description: "OAuth client id. Required.",
  },
  clientSecret: {
    key: "embedded:clientSecret",
    env: "EMBEDDED_CLIENT_SECRET",
    secret: true,
    type: "string",
    description: "OAuth client secret. Required; always a secret, never printed.",
  },
  digestKey: {
    key: "embedded:digestKey",
    env: "EMBEDDED_DIGEST_KEY",
    secret: true,
    type: "string",
    description:
      "Key material the dynamic provider mixes into the key of a ConnectorConfiguration's `fieldDigests`, so that " +
      "nothing Pulumi prints (`pulumi up --debug` prints the `digestSalt` output) lets the client secret's holder " +
      "test a guess of a value offline. Set it once per stack: " +
      '`pulumi config set --secret embedded:digestKey "$(openssl rand -hex 32)"`. Always a secret, never printed. ' +
      "The plugin does not need it: its salt is a hidden secret input. Default: none (docs/secrets.md).",
  },
  accountId: {
    key: "embedded:accountId",
    env: "EMBEDDED_ACCOUNT_ID",
    secret: false,
    type: "string",
    description: "Default sub-account for resources and lookups that do not name one. Default: none.",
  },
  timeoutMs: {
    key: "embedded:timeoutMs",
    env: "EMBEDDED_TIMEOUT_MS",
    secret: false,
    type: "integer",
    default: DEFAULT_TIMEOUT_MS,
    min: 1,
    description:
      "Longest wait for an answer's headers, and longest pause between two chunks of its body, in milliseconds; " +
      `not a cap on a whole request. Default: ${DEFAULT_TIMEOUT_MS}.`,
  },
  maxRetries: {
    key: "embedded:maxRetries",
    env: "EMBEDDED_MAX_RETRIES",
    secret: false,
    type: "integer",
    default: DEFAULT_MAX_RETRIES,
    min: 0,
    description: `Retries after the first attempt of a call that failed with a transient fault (5xx, no answer). Default: ${DEFAULT_MAX_RETRIES}.`,
  },
  retryTimeoutMs: {
    key: "embedded:retryTimeoutMs",
    env: "EMBEDDED_RETRY_TIMEOUT_MS",
    secret: false,
    type: "integer",
    default: DEFAULT_RETRY_TIMEOUT_MS,
    min: 1,
    description:
      "How long one call may keep waiting in all when the service says when to come back (429, or 503 with " +
      `Retry-After), in milliseconds. Default: ${DEFAULT_RETRY_TIMEOUT_MS} (${DEFAULT_RETRY_TIMEOUT_MS / 60_000} minutes).`,
  },
  concurrency: {
    key: "embedded:concurrency",
    env: "EMBEDDED_CONCURRENCY",
    secret: false,
    type: "integer",
    default: DEFAULT_CONCURRENCY,
    min: 1,
    description: `Requests in flight per process, base URL and client id (one customer's requests never wait for another's). Default: ${DEFAULT_CONCURRENCY}.`,
  },
  addWindowMs: {
    key: "embedded:addWindowMs",
    env: "EMBEDDED_ADD_WINDOW_MS",
    secret: false,
    type: "integer",
    default: DEFAULT_ADD_WINDOW_MS,
    min: 0,
    description: `Longest a create waits for others to share its Add call, in milliseconds; 0 sends every Add alone. Default: ${DEFAULT_ADD_WINDOW_MS}.`,
  },
  caCertificate: {
    key: "embedded:caCertificate",
    env: "EMBEDDED_CA_CERTIFICATE",
    secret: false,
    type: "string",
    description: "PEM certificate of a private CA. Default: none (the system's CAs).",
  },
  serviceProfile: {
    key: "embedded:serviceProfile",
    env: "EMBEDDED_SERVICE_PROFILE",
    secret: false,
    type: "string",
    description:
      "Path of a JSON or YAML service profile: the service's methods, paths, parameter names, paging and " +
      "envelope, where they differ from the built-in contract (docs/service-profile.md). Default: none (the built-in profile).",
  },
} as const;

export type SettingName = keyof typeof SETTINGS;
