// Lookup functions run in the program process: settings from `new pulumi.Config("embedded")`,
// then the environment (the same rules as the provider, provider/settings/resolve.ts).
import * as pulumi from "@pulumi/pulumi";
import {
  getClient,
  type ConnectorFilters as ClientConnectorFilters,
  type DataType as ClientDataType,
  type DataTypeCategory as ClientDataTypeCategory,
  type PlatformType as ClientPlatformType,
} from "../client";
import type { LookupContext } from "./lookups";
import { configSourceFromNamespace, resolveAccountId, resolveSettings, toClientSettings } from "../settings/resolve";
import type { ConnectorFilters, DataType, DataTypeCategory, PlatformType } from "./types";
import { warnOfPlainSecretSettings } from "../settings/program-stack-config";
import { asRefusal } from "./refusal";
import { refusalWithoutArguments, secretArgumentsOf } from "./secret-arguments";

// The public value lists and filters (types.ts) are written out; these fail to compile when
// they drift from the client's.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const samePublicTypes: [
  Same<DataType, ClientDataType>,
  Same<DataTypeCategory, ClientDataTypeCategory>,
  Same<PlatformType, ClientPlatformType>,
  Same<Required<ConnectorFilters>, Required<ClientConnectorFilters>>,
] = [true, true, true, true];
void samePublicTypes;

function stackConfig() {
  return configSourceFromNamespace(new pulumi.Config("embedded"));
}

/** The program process's lookups: the client and default sub-account of the stack config `embedded:*`. */
function programContext(secretArguments: ReadonlySet<string>): LookupContext {
  warnOfPlainSecretSettings();
  const config = stackConfig();
  return {
    client: getClient(toClientSettings(resolveSettings(config))),
    accountId: (explicit) => resolveAccountId(explicit, config),
    secretArguments,
  };
}

/**
 * Runs a lookup in the program process; a refusal rejects as one message (refusal.ts), without
 * the value of any argument that arrived secret (secret-arguments.ts).
 */
export async function inProgram<R>(args: object, lookup: (ctx: LookupContext) => Promise<R>): Promise<R> {
  const secrets = secretArgumentsOf(args);
  try {
    return await lookup(programContext(secrets));
  } catch (error) {
    throw asRefusal(refusalWithoutArguments(error, args as Record<string, unknown>, secrets));
  }
}
