// ConnectorConfiguration, described once (see property.ts): the secret configuration of an added connector.
import { SETTINGS } from "../settings/table";
import type { ResourceDefinition } from "./property";

/** The hidden input that holds the salt of the digests' key on the plugin (connector-configuration/digest-salt.ts). */
export const DIGEST_SALT_INPUT = "__digestSalt";

export const CONNECTOR_CONFIGURATION = {
  name: "ConnectorConfiguration",
  description:
    "The secret configuration of a connector (the service's Configure Connector, a PUT of the whole configuration). " +
    "Detects out-of-band writes through `lastUpdated`. Deleting it leaves the saved configuration in place (the " +
    'service has no "unconfigure"; the provider logs a warning): removing the connector (its AddedConnector) drops ' +
    "the configuration. Drift is shown by field name, never by value: `fieldDigests` and `drift`. Id: `<accountId>/<connectorId>`.",
  inputs: {
    connectorId: {
      type: "string",
      required: true,
      replaceOnChange: true,
      idPart: true,
      description:
        "The 16-character id of an added connector (pass the AddedConnector's `connectorId`). Changing it replaces the resource.",
    },
    accountId: {
      type: "string",
      replaceOnChange: true,
      idPart: true,
      description:
        "The sub-account. Default: the provider's `accountId` (stack config " +
        `\`${SETTINGS.accountId.key}\`, else the environment variable \`${SETTINGS.accountId.env}\`). ` +
        "Changing it replaces the resource.",
    },
    configurationId: {
      type: "string",
      description: "Default: the first secret configuration's id (the only one the service can save).",
    },
    name: { type: "string", optionalOutput: true, description: "Name of the configuration. Default: the service's." },
    secretName: {
      type: "string",
      optionalOutput: true,
      description: "Name of the key in the service's secret manager. Default: the service's.",
    },
    adoptExisting: {
      type: "boolean",
      default: false,
      optionalOutput: true,
      description:
        "Take over a configuration already saved on the connector that this stack did not write, overwriting it " +
        "(Password fields included). Default: false (creating this resource over a saved configuration is an error " +
        "that names the connector and the sub-account; adopt it with this flag, or with `pulumi import` when using " +
        "the plugin). A connector this stack adds in the same run has none. Changing it alone changes nothing.",
    },
    heldByService: {
      type: { array: "string" },
      inputOnly: true,
      description:
        "Password fields whose values the service holds and this stack does not (a customer's own key, entered in " +
        "the service's UI): never sent, so never cleared, and never in the state. Each must be a Password field of " +
        "the connector, absent from `secretConfig`. Drift still covers every other field by digest, and a write of a " +
        "held Password shows through `lastUpdated`. Where the service replaces the whole configuration on Configure " +
        "(the contract's; service profile `semantics.configureWrites: whole`), any write would clear them, so a " +
        "change that writes is refused at preview; where it keeps the fields a Configure leaves out (`given`), only " +
        "the given fields are sent. Default: none (the configuration holds exactly `secretConfig`).",
    },
    secretConfig: {
      type: { map: { oneOf: ["string", "number", { array: "string" }] } },
      required: true,
      secret: true,
      // Not an output: outputs reach the program in clear (`pulumi up --debug` prints them);
      // the state keeps it among the inputs, and `fieldDigests` shows which field changed.
      inputOnly: true,
      description:
        "Field id → value (Text, Password, Date, Select: a string; Number: a number or a numeric string; " +
        "Multi-Select: a list, or a comma-separated string), validated against the connector's live field " +
        'descriptors at preview ("" and [] count as missing). Always stored as a secret, whatever is passed; an input only ' +
        "(not an output: the `fieldDigests` output shows which field changed).",
    },
  },
  hiddenInputs: {
    [DIGEST_SALT_INPUT]: {
      type: "string",
      secret: true,
      description:
        "The plugin's salt of the digests' key (128 random bits, hex), drawn by check at create or import and " +
        "carried from the stored inputs by every later check; never an output, so never printed.",
    },
  },
  outputs: {
    configured: {
      type: "boolean",
      description: "Whether the service reports the configuration saved (current after every write and refresh).",
    },
    lastUpdated: { type: "integer", description: "The service's lastUpdated (Unix seconds) as last read." },
    appliedLastUpdated: {
      type: "integer",
      description: "The lastUpdated our last write produced; a different lastUpdated means an out-of-band write.",
    },
    fieldDigests: {
      type: { map: "string" },
      description:
        "Field id → keyed digest (16 hex characters) of its value, for every field of the applied secretConfig but " +
        'a Password, which gets no digest (the mark "(password: not digested)"); a refresh recomputes those of the ' +
        "fields the service returns from their live values. An HMAC-SHA256 keyed by a key derived from the " +
        "provider's client secret and a random salt of the resource (the plugin's: a hidden secret input, never " +
        "printed; the dynamic provider's: `digestSalt`): no value can be recovered from a digest, and none confirmed " +
        "without both. Not a secret, so that a drift display names the field that changed: `fieldDigests.<field>`.",
    },
    digestKeyId: {
      type: "string",
      description:
        "A short id of the key of `fieldDigests` (an HMAC of a constant under it, not the key). Another client secret " +
        "gives another id: the digests cannot be compared, and the next update re-writes the configuration once.",
    },
    digestSalt: {
      type: "string",
      secret: true,
      optionalOutput: true,
      description:
        "The dynamic provider's salt (128 bits, drawn at create) the key of `fieldDigests` is derived with, besides " +
        "the client secret. Kept secret in the state, but every output reaches the program, whose SDK prints it " +
        "under `pulumi up --debug`. The plugin sets none: its salt is a hidden secret input, never an output, so " +
        "nothing Pulumi prints keys the digests (docs/secrets.md). Still read in a plugin state written before that, " +
        "until its next write. With `embedded:digestKey` set, the dynamic provider mixes that stack secret in too, " +
        "so the printed salt and the client secret confirm nothing.",
    },
    digestRecipe: {
      type: "string",
      optionalOutput: true,
      description:
        'Which recipe keyed `fieldDigests`: "salt+digestKey" when the dynamic provider mixed `embedded:digestKey` ' +
        "in (never the key); absent otherwise. A state keeps comparing under its recipe until its next write.",
    },
    drift: {
      type: "string",
      description:
        "Empty when the service holds what the last write of this resource applied. Else, set by a refresh, when the " +
        "configuration was changed out of band and which fields, by name (e.g. `changed out of band at " +
        "2026-01-02T03:04:05Z: region`); a changed Password, which the service never returns, is told in words.",
    },
  },
} as const satisfies ResourceDefinition;
