// The policy pack's rules as a team configures them (`pulumi preview --policy-pack-config
// <file>`, docs/policy.md): each rule's name, what its config holds, and the JSON schema the
// engine validates that config against before any rule runs. Pure: no @pulumi/policy here, so
// that the rules' unit tests and the fleet's report load it cheaply.

/** A connector of the catalogue as a rule names it: every given key must match (exact, case-sensitive). */
export interface ConnectorMatch {
  readonly name?: string;
  readonly platformType?: string;
  readonly side?: "Source" | "Destination";
}

/** `embedded-allowed-connectors`: the first list that names the sub-account or the stack applies, else `connectors`. */
export interface AllowedConnectorsConfig {
  readonly connectors?: readonly ConnectorMatch[];
  readonly stacks?: Readonly<Record<string, readonly ConnectorMatch[]>>;
  readonly accounts?: Readonly<Record<string, readonly ConnectorMatch[]>>;
}

/** `embedded-passwords-from-secrets`: the connectors whose Passwords the service may hold (`heldByService`). */
export interface PasswordsConfig {
  readonly heldByService?: readonly ConnectorMatch[];
}

/** `embedded-required-secret-config`: connector name (or 16-character id) → the field ids that must be set. */
export interface RequiredFieldsConfig {
  readonly fields?: Readonly<Record<string, readonly string[]>>;
}

/** `embedded-connectors-per-sub-account`: the most AddedConnectors a stack declares in one sub-account. */
export interface PerSubAccountConfig {
  readonly max?: number;
  readonly accounts?: Readonly<Record<string, number>>;
}

/** The rules' names: what `--policy-pack-config` keys and each violation names. */
export const RULES = {
  allowedConnectors: "embedded-allowed-connectors",
  passwordsFromSecrets: "embedded-passwords-from-secrets",
  requiredSecretConfig: "embedded-required-secret-config",
  connectorsPerSubAccount: "embedded-connectors-per-sub-account",
  noSecretId: "embedded-no-secret-id",
} as const;

export type RuleName = (typeof RULES)[keyof typeof RULES];

const match = {
  type: "object",
  additionalProperties: false,
  properties: {
    name: { type: "string", minLength: 1 },
    platformType: { type: "string", minLength: 1 },
    side: { enum: ["Source", "Destination"] },
  },
} as const;
const matches = { type: "array", items: match } as const;
const matchesByKey = { type: "object", additionalProperties: matches } as const;

/** Each rule's config schema (the engine refuses a config file that does not fit, naming the rule). */
export const CONFIG_SCHEMAS = {
  [RULES.allowedConnectors]: {
    properties: { connectors: matches, stacks: matchesByKey, accounts: matchesByKey },
  },
  [RULES.passwordsFromSecrets]: { properties: { heldByService: matches } },
  [RULES.requiredSecretConfig]: {
    properties: {
      fields: { type: "object", additionalProperties: { type: "array", items: { type: "string", minLength: 1 } } },
    },
  },
  [RULES.connectorsPerSubAccount]: {
    properties: {
      max: { type: "integer", minimum: 0 },
      accounts: { type: "object", additionalProperties: { type: "integer", minimum: 0 } },
    },
  },
} as const;

/** A connector's facts a rule reads, as the service's catalogue gives them. */
export interface ConnectorFacts {
  readonly connectorId: string;
  readonly name: string;
  readonly platformType: string;
  readonly supportedType: string;
}

/** Whether a catalogue connector is one a match names. */
export function matchesConnector(facts: ConnectorFacts, wanted: ConnectorMatch): boolean {
  return (
    (wanted.name === undefined || wanted.name === facts.name) &&
    (wanted.platformType === undefined || wanted.platformType === facts.platformType) &&
    (wanted.side === undefined || wanted.side === facts.supportedType)
  );
}

/** A match in words, for a violation: `name "Amazon S3", side Source`. */
export function matchShown(wanted: ConnectorMatch): string {
  const parts = [
    wanted.name !== undefined ? `name ${JSON.stringify(wanted.name)}` : undefined,
    wanted.platformType !== undefined ? `platformType ${JSON.stringify(wanted.platformType)}` : undefined,
    wanted.side !== undefined ? `side ${wanted.side}` : undefined,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(", ") : "any connector";
}
