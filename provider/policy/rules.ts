// The policy pack's rules, as pure functions of a resource's inputs, the rule's config and what
// the service's catalogue says (pack.ts gives them to @pulumi/policy). A violation names the
// resource, the rule and what to change; it never holds a value, only field ids, connector names
// and ids (ids are never secret: the providers refuse a secret id at check).
// Which field is a secret field is secret-fields.ts' one rule; whether a value is written in
// plain in the project is project/written-in-plain.ts'.
import { secretVerdict, type FieldLike, type SecretTypesSource } from "../schema/secret-fields";
import {
  matchesConnector,
  matchShown,
  RULES,
  type AllowedConnectorsConfig,
  type ConnectorFacts,
  type ConnectorMatch,
  type PasswordsConfig,
  type PerSubAccountConfig,
  type RequiredFieldsConfig,
} from "./config";

/** Which resource of which host: `embedded:index:*` (plugin) or `pulumi-nodejs:dynamic/embedded-connectors:*`. */
export type ConnectorKind = "AddedConnector" | "ConnectorConfiguration";

export const TYPE_TOKENS: Readonly<Record<ConnectorKind, readonly string[]>> = {
  AddedConnector: ["embedded:index:AddedConnector", "pulumi-nodejs:dynamic/embedded-connectors:AddedConnector"],
  ConnectorConfiguration: [
    "embedded:index:ConnectorConfiguration",
    "pulumi-nodejs:dynamic/embedded-connectors:ConnectorConfiguration",
  ],
};

/** The kind of a resource type, or undefined for any other resource. */
export function kindOf(type: string): ConnectorKind | undefined {
  return (Object.keys(TYPE_TOKENS) as ConnectorKind[]).find((kind) => TYPE_TOKENS[kind].includes(type));
}

/** One resource as a rule reads it. */
export interface ConnectorResource {
  readonly kind: ConnectorKind;
  /** The resource's name in the program (`pulumi preview` shows it beside the violation). */
  readonly name: string;
  readonly props: Record<string, unknown>;
}

/** What the rules ask of the service and the project, for the resource's sub-account. */
export interface RuleContext {
  /** The stack the engine runs (PULUMI_STACK). */
  readonly stack: string;
  /** The sub-account: the resource's accountId, else the provider's default; undefined when neither. */
  readonly accountId: string | undefined;
  /** The catalogue's connector; throws with the client's message (no secret in it) when it cannot be read. */
  connector(connectorId: string): Promise<ConnectorFacts>;
  /** The connector's field descriptors (ids and types); throws like `connector`. */
  fields(connectorId: string): Promise<readonly (FieldLike & { readonly id: string })[]>;
  /** The service profile in force (its added secret field types). */
  readonly profile: SecretTypesSource;
  /** Whether a string is written in plain in the project (written-in-plain.ts). */
  writtenInPlain(value: string): boolean;
}

const named = (resource: ConnectorResource) => `${resource.kind} ${JSON.stringify(resource.name)}`;
const connectorShown = (facts: ConnectorFacts) =>
  `connector ${JSON.stringify(facts.name)} (${facts.connectorId}, ${facts.platformType}, ${facts.supportedType})`;
const because = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A rule over one kind of resource, given the connector it names: every other resource, and one
 * whose connectorId is not known yet (an output at preview), passes.
 */
function connectorRule<Config>(
  kind: ConnectorKind,
  check: (resource: ConnectorResource, connectorId: string, config: Config, ctx: RuleContext) => Promise<string[]>,
): (resource: ConnectorResource, config: Config, ctx: RuleContext) => Promise<string[]> {
  return async (resource, config, ctx) => {
    const connectorId = resource.props.connectorId;
    if (resource.kind !== kind || typeof connectorId !== "string") return [];
    return check(resource, connectorId, config, ctx);
  };
}

async function factsOr(
  resource: ConnectorResource,
  rule: string,
  ctx: RuleContext,
  connectorId: string,
): Promise<ConnectorFacts | string> {
  try {
    return await ctx.connector(connectorId);
  } catch (error) {
    return (
      `${named(resource)}: ${rule} cannot tell whether connector ${connectorId} is allowed: its catalogue entry ` +
      `could not be read (${because(error)}); check the provider's settings (baseUrl, clientId, clientSecret) ` +
      "reach the service from where the preview runs"
    );
  }
}

/** The list of allowed connectors for the sub-account or the stack, else the team's; undefined: no list. */
export function allowedFor(config: AllowedConnectorsConfig, stack: string, accountId: string | undefined) {
  const byAccount = accountId !== undefined ? config.accounts?.[accountId] : undefined;
  if (byAccount) return { list: byAccount, where: `sub-account ${accountId}` };
  const byStack = config.stacks?.[stack];
  if (byStack) return { list: byStack, where: `stack ${JSON.stringify(stack)}` };
  return config.connectors ? { list: config.connectors, where: "this team" } : undefined;
}

/** `embedded-allowed-connectors`: an AddedConnector adds only a connector its list names. */
export const allowedConnectors = connectorRule<AllowedConnectorsConfig>(
  "AddedConnector",
  async (resource, connectorId, config, ctx) => {
    const allowed = allowedFor(config, ctx.stack, ctx.accountId);
    if (!allowed) return [];
    const facts = await factsOr(resource, RULES.allowedConnectors, ctx, connectorId);
    if (typeof facts === "string") return [facts];
    if (allowed.list.some((wanted) => matchesConnector(facts, wanted))) return [];
    const list = allowed.list.length > 0 ? allowed.list.map(matchShown).join("; ") : "none";
    return [
      `${named(resource)} adds ${connectorShown(facts)}, which ${RULES.allowedConnectors} does not allow for ` +
        `${allowed.where} (allowed: ${list}); remove the resource, or add a match for it to the rule's config`,
    ];
  },
);

/** The field ids of a configuration's Passwords (and other secret fields) given in plain in the project. */
async function plainSecretFields(resource: ConnectorResource, ctx: RuleContext, connectorId: string) {
  const given = resource.props.secretConfig;
  if (given === null || typeof given !== "object") return [];
  const descriptors = await ctx.fields(connectorId);
  const typeOf = new Map(descriptors.map((field) => [field.id, field.type]));
  return Object.entries(given as Record<string, unknown>)
    .filter(([id, value]) => secretVerdict({ type: typeOf.get(id), value }, ctx.profile).secret)
    .filter(
      ([, value]) => (typeof value === "string" || typeof value === "number") && ctx.writtenInPlain(String(value)),
    )
    .map(([id]) => id);
}

const heldIds = (props: Record<string, unknown>) =>
  Array.isArray(props.heldByService) ? props.heldByService.filter((id) => typeof id === "string") : [];

/**
 * `embedded-passwords-from-secrets`: no Password written in plain in the project (a literal of the
 * program, a plain stack config value), and `heldByService` only for the connectors the team allows.
 */
export const passwordsFromSecrets = connectorRule<PasswordsConfig>(
  "ConnectorConfiguration",
  async (resource, connectorId, config, ctx) => {
    const found: string[] = [];
    let plain: string[];
    try {
      plain = await plainSecretFields(resource, ctx, connectorId);
    } catch (error) {
      return [
        `${named(resource)}: ${RULES.passwordsFromSecrets} cannot tell which fields of connector ${connectorId} are ` +
          `Passwords: its fields could not be read (${because(error)}); check the provider's settings reach the service`,
      ];
    }
    if (plain.length > 0) {
      found.push(
        `${named(resource)}: secretConfig ${plain.map((id) => JSON.stringify(id)).join(", ")} of connector ` +
          `${connectorId} ${plain.length === 1 ? "is a Password field" : "are Password fields"} written in plain in ` +
          "the project (a literal of the program, or a stack config value set without --secret); take each from a " +
          "secret: `pulumi config set --secret <key>` read with requireSecret (TypeScript, Python, Go), or " +
          "`fn::secret` / a secret config value (YAML)",
      );
    }
    const held = heldIds(resource.props);
    if (held.length > 0)
      found.push(...(await heldAllowed(resource, config.heldByService ?? [], ctx, connectorId, held)));
    return found;
  },
);

async function heldAllowed(
  resource: ConnectorResource,
  allowed: readonly ConnectorMatch[],
  ctx: RuleContext,
  connectorId: string,
  held: string[],
): Promise<string[]> {
  const facts = await factsOr(resource, RULES.passwordsFromSecrets, ctx, connectorId);
  if (typeof facts === "string") return [facts];
  if (allowed.some((wanted) => matchesConnector(facts, wanted))) return [];
  const list = allowed.length > 0 ? allowed.map(matchShown).join("; ") : "none";
  return [
    `${named(resource)}: heldByService (${held.map((id) => JSON.stringify(id)).join(", ")}) leaves Passwords of ` +
      `${connectorShown(facts)} to the service, which ${RULES.passwordsFromSecrets} allows only for: ${list}; ` +
      "remove heldByService and give those fields in secretConfig from secrets, or add the connector to the rule's " +
      "heldByService config",
  ];
}

const isSet = (value: unknown) =>
  value !== undefined && value !== null && value !== "" && !(Array.isArray(value) && value.length === 0);

/** `embedded-required-secret-config`: the fields the team requires of a connector are set ("" and [] are not). */
export const requiredSecretConfig = connectorRule<RequiredFieldsConfig>(
  "ConnectorConfiguration",
  async (resource, connectorId, config, ctx) => {
    if (!config.fields) return [];
    const byId = config.fields[connectorId] ?? [];
    let byName: readonly string[] = [];
    if (Object.keys(config.fields).some((key) => key !== connectorId)) {
      const facts = await factsOr(resource, RULES.requiredSecretConfig, ctx, connectorId);
      if (typeof facts === "string") return [facts];
      byName = config.fields[facts.name] ?? [];
    }
    const given = (resource.props.secretConfig ?? {}) as Record<string, unknown>;
    const missing = [...new Set([...byId, ...byName])].filter((id) => !isSet(given[id]));
    if (missing.length === 0) return [];
    return [
      `${named(resource)}: secretConfig lacks ${missing.map((id) => JSON.stringify(id)).join(", ")}, which ` +
        `${RULES.requiredSecretConfig} requires of connector ${connectorId}; set ${missing.length === 1 ? "it" : "them"} ` +
        "in secretConfig (from a secret when it is a Password)",
    ];
  },
);

/** The id inputs a rule refuses as secrets: the id parts (which the providers' check refuses too) and configurationId. */
export const ID_INPUTS = ["accountId", "connectorId", "configurationId"] as const;

/**
 * `embedded-no-secret-id`: no id given as a secret. `secret`: the inputs that arrived secret
 * (secret-inputs.ts); undefined when this @pulumi/policy does not let the pack tell.
 */
export function noSecretId(resource: ConnectorResource, secret: ReadonlySet<string> | undefined): string[] {
  if (secret === undefined) {
    return [
      `${named(resource)}: ${RULES.noSecretId} cannot tell which inputs are secrets with this @pulumi/policy; ` +
        "install the version docs/policy.md names beside the pack",
    ];
  }
  const ids = ID_INPUTS.filter((name) => secret.has(name));
  if (ids.length === 0) return [];
  return [
    `${named(resource)}: ${ids.join(", ")} ${ids.length === 1 ? "is" : "are"} given as a secret, which ` +
      `${RULES.noSecretId} refuses: an id is kept in plaintext in the state and its messages; pass it plain ` +
      "(config.require, not requireSecret; or pulumi.unsecret when it is no secret in fact)",
  ];
}

/** One AddedConnector of the stack, for the per-sub-account count. */
export interface CountedConnector {
  readonly name: string;
  readonly accountId: string | undefined;
}

/** `embedded-connectors-per-sub-account`: at most `max` (or the sub-account's own limit) AddedConnectors. */
export function connectorsPerSubAccount(
  connectors: readonly CountedConnector[],
  config: PerSubAccountConfig,
): string[] {
  const byAccount = new Map<string, string[]>();
  for (const connector of connectors) {
    const account = connector.accountId ?? "(the provider's default sub-account)";
    byAccount.set(account, [...(byAccount.get(account) ?? []), connector.name]);
  }
  const found: string[] = [];
  for (const [account, unsorted] of byAccount) {
    const names = [...unsorted].sort();
    const limit = config.accounts?.[account] ?? config.max;
    if (limit === undefined || names.length <= limit) continue;
    found.push(
      `sub-account ${account} gets ${names.length} AddedConnectors (${names.map((n) => JSON.stringify(n)).join(", ")}), ` +
        `more than the ${limit} that ${RULES.connectorsPerSubAccount} allows; remove ${names.length - limit}, or raise ` +
        "the rule's max (or its accounts entry for this sub-account)",
    );
  }
  return found;
}
