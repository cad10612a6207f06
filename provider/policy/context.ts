// Where the policy pack's rules get what the inputs do not say: the catalogue's connector (name,
// platform type, side) and its field descriptors, read from the service with the resource's own
// settings, resolved by the one resolver (settings/resolve.ts): a plugin resource's provider
// arguments (its default provider's are the stack config), else the stack config the engine
// hands the pack (stack-config.ts), then the environment. And the project's files, to tell a
// Password written in plain (project/written-in-plain.ts).
import { existsSync } from "node:fs";
import * as path from "node:path";
import { getClient, type EmbeddedClient } from "../client";
import { findProjectFile } from "../project/pulumi-project";
import { projectTexts, writtenInPlain } from "../project/written-in-plain";
import {
  configSourceFromNamespace,
  resolveAccountId,
  resolveSettings,
  toClientSettings,
  type ConfigSource,
} from "../settings/resolve";
import type { ConnectorFacts } from "./config";
import { projectName, stackConfigSource, stackName } from "./stack-config";
import type { RuleContext } from "./rules";

/** The provider a resource names, as @pulumi/policy gives it. */
export interface ProviderLike {
  readonly type: string;
  readonly props: Record<string, unknown>;
}

const PLUGIN_PROVIDER = "pulumi:providers:embedded";

/** The settings' source of a resource: its plugin provider's arguments, else the stack config. */
export function configSourceOf(provider: ProviderLike | undefined): ConfigSource {
  if (provider?.type === PLUGIN_PROVIDER) {
    const props = provider.props;
    return configSourceFromNamespace({ get: (name) => props[name] as string | undefined });
  }
  return stackConfigSource();
}

/** The resource's sub-account: its accountId, else the default setting; undefined when neither. */
export function accountOf(props: Record<string, unknown>, provider: ProviderLike | undefined): string | undefined {
  const explicit = typeof props.accountId === "string" ? props.accountId : undefined;
  try {
    return resolveAccountId(explicit, configSourceOf(provider));
  } catch {
    return undefined;
  }
}

/**
 * The program's directory: where pulumi was run from (PWD), else where the pack was started when
 * that is not the pack's own folder (the engine starts it there); the first whose project file
 * (found upwards) is the stack's project (PULUMI_PROJECT, when the engine sets it).
 */
export function programDir(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | undefined {
  const project = projectName(env);
  const started = existsSync(path.join(cwd, "PulumiPolicy.yaml")) ? undefined : cwd;
  for (const dir of [env.PWD, started]) {
    if (!dir) continue;
    const found = findProjectFile(dir);
    if (found && (project === undefined || found.doc.name === project)) return path.dirname(found.file);
  }
  return undefined;
}

const catalogue = new Map<string, Promise<ConnectorFacts>>();
const descriptors = new Map<string, ReturnType<RuleContext["fields"]>>();

function once<T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  let known = cache.get(key);
  if (!known) {
    known = read();
    cache.set(key, known);
  }
  return known;
}

/** A rule's context for one resource. */
export function ruleContext(props: Record<string, unknown>, provider: ProviderLike | undefined): RuleContext {
  const accountId = accountOf(props, provider);
  let client: { client: EmbeddedClient; key: string } | undefined;
  const resolved = () => {
    if (!client) {
      const settings = resolveSettings(configSourceOf(provider));
      client = { client: getClient(toClientSettings(settings)), key: `${settings.baseUrl}\u0000${settings.clientId}` };
    }
    return client;
  };
  const clientOf = () => resolved().client;
  const keyOf = (connectorId: string) => `${resolved().key}\u0000${account()}\u0000${connectorId}`;
  const account = () => {
    if (accountId === undefined) throw new Error("no accountId, and no default sub-account (embedded:accountId)");
    return accountId;
  };
  const dir = programDir();
  return {
    stack: stackName(),
    accountId,
    connector: (connectorId) =>
      once(catalogue, keyOf(connectorId), async () => {
        const read = await clientOf().getConnector(account(), connectorId);
        return { connectorId, name: read.name, platformType: read.platformType, supportedType: read.supportedType };
      }),
    fields: (connectorId) =>
      once(descriptors, keyOf(connectorId), async () => {
        const view = await clientOf().getConfiguration(account(), connectorId);
        return view.secretConfig[0]?.configuration ?? view.configuration;
      }),
    get profile() {
      return clientOf().profile;
    },
    writtenInPlain: (value) => {
      if (dir === undefined) {
        throw new Error(
          "the program's project was not found (run pulumi from the project's directory, so that the pack can read it)",
        );
      }
      return writtenInPlain(value, projectTexts(dir), "plain"); // a doubt is a violation, never a pass
    },
  };
}
