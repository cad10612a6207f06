// The policy pack `embedded-connectors` (docs/policy.md): the rules of rules.ts, run by Pulumi's
// own policy engine (`pulumi preview --policy-pack <package>/policy`) over the plugin's resources
// and the dynamic ones alike, from a program in any language. Every rule is mandatory unless the
// team's `--policy-pack-config` says `advisory` (or `disabled`).
import {
  PolicyPack,
  type PolicyResource,
  type ResourceValidationPolicy,
  type StackValidationPolicy,
} from "@pulumi/policy";
import { CONFIG_SCHEMAS, RULES, type PerSubAccountConfig } from "./config";
import { accountOf, ruleContext, type ProviderLike } from "./context";
import * as rules from "./rules";
import { noteSecretInputs, secretInputsOf } from "./secret-inputs";
import { noteStackConfig } from "./stack-config";

noteSecretInputs();
noteStackConfig();

type Rule = (resource: rules.ConnectorResource, config: never, ctx: rules.RuleContext) => Promise<string[]> | string[];

/** A resource policy over both resources of both hosts; other resources are not looked at. */
function resourcePolicy(name: string, description: string, rule: Rule): ResourceValidationPolicy {
  const schema = (CONFIG_SCHEMAS as Record<string, { properties: Record<string, unknown> }>)[name];
  return {
    name,
    description,
    ...(schema ? { configSchema: schema as ResourceValidationPolicy["configSchema"] } : {}),
    validateResource: async (args, reportViolation) => {
      const kind = rules.kindOf(args.type);
      if (!kind) return;
      const resource = { kind, name: args.name, props: args.props };
      const ctx = ruleContext(args.props, args.provider as ProviderLike | undefined);
      for (const violation of await rule(resource, args.getConfig<object>() as never, ctx)) reportViolation(violation);
    },
  };
}

const perSubAccount: StackValidationPolicy = {
  name: RULES.connectorsPerSubAccount,
  description: "At most N connectors per sub-account (over the whole stack).",
  configSchema: CONFIG_SCHEMAS[RULES.connectorsPerSubAccount] as StackValidationPolicy["configSchema"],
  validateStack: (args, reportViolation) => {
    const added = args.resources.filter((resource: PolicyResource) => rules.kindOf(resource.type) === "AddedConnector");
    const counted = added.map((resource) => ({
      name: resource.name,
      accountId: accountOf(resource.props, resource.provider as ProviderLike | undefined),
    }));
    for (const violation of rules.connectorsPerSubAccount(counted, args.getConfig<PerSubAccountConfig>())) {
      reportViolation(violation);
    }
  },
};

new PolicyPack("embedded-connectors", {
  enforcementLevel: "mandatory",
  description: "Guardrails for the connectors of pulumi-embedded-connectors (docs/policy.md).",
  policies: [
    resourcePolicy(
      RULES.allowedConnectors,
      "Only the connectors the team allows, by name, platform type and side, per sub-account or stack.",
      rules.allowedConnectors as Rule,
    ),
    resourcePolicy(
      RULES.passwordsFromSecrets,
      "Password fields only from secrets (none written in plain), heldByService only where allowed.",
      rules.passwordsFromSecrets as Rule,
    ),
    resourcePolicy(
      RULES.requiredSecretConfig,
      "The secretConfig fields the team requires of a connector are set.",
      rules.requiredSecretConfig as Rule,
    ),
    resourcePolicy(RULES.noSecretId, "No id (accountId, connectorId, configurationId) given as a secret.", (resource) =>
      rules.noSecretId(resource, secretInputsOf(resource.props)),
    ),
    perSubAccount,
  ],
});
