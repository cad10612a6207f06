// Lookup functions run in the program process: settings from `new pulumi.Config("embedded")`,
// then the environment (the same rules as the provider, provider/settings.ts).
import * as pulumi from "@pulumi/pulumi";
import { getClient, type DataType as ClientDataType, type DataTypeCategory as ClientDataTypeCategory,
  type PlatformType as ClientPlatformType } from "../client";
import type { LookupContext } from "./lookups";
import { configSourceFromNamespace, resolveAccountId, resolveSettings, toClientSettings } from "../settings";
import type { DataType, DataTypeCategory, InputArgs, PlatformType } from "./types";
import type { FunctionDefinition } from "../definitions/property";
import { functionSecrets, withoutSecretValues } from "../definitions/secrets";
import { asRefusal } from "./refusal";

// The public value lists (types.ts) are written out; these fail to compile when they drift
// from the client's.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameValueLists: [Same<DataType, ClientDataType>, Same<DataTypeCategory, ClientDataTypeCategory>, Same<PlatformType, ClientPlatformType>] =
  [true, true, true];
void sameValueLists;

function stackConfig() {
  return configSourceFromNamespace(new pulumi.Config("embedded"));
}

/** The program process's lookups: the client and default sub-account of the stack config `embedded:*`. */
function programContext(): LookupContext {
  const config = stackConfig();
  return {
    client: getClient(toClientSettings(resolveSettings(config))),
    accountId: (explicit) => resolveAccountId(explicit, config),
  };
}

/** Runs a lookup in the program process; a refusal rejects as one message (refusal.ts). */
export async function inProgram<R>(lookup: (ctx: LookupContext) => Promise<R>): Promise<R> {
  try {
    return await lookup(programContext());
  } catch (error) {
    throw asRefusal(error);
  }
}

/**
 * Lifts a lookup into its Output form: waits for the Inputs, keeps their secretness, and is a
 * secret Output when the definition says the result holds secrets (definitions/secrets.ts).
 */
export function outputForm<A extends object, R>(definition: FunctionDefinition, fn: (args: A) => Promise<R>): (args: InputArgs<A>) => pulumi.Output<R> {
  const secret = functionSecrets(definition).length > 0;
  return (args) => {
    const result = pulumi.output(args).apply((resolved) => fn(resolved as unknown as A)) as unknown as pulumi.Output<R>;
    return secret ? (pulumi.secret(result) as unknown as pulumi.Output<R>) : result;
  };
}

/** A lookup's result as its Promise form returns it: without what the definition says is secret. */
export function promiseResult<R>(definition: FunctionDefinition, result: R): R {
  return withoutSecretValues(definition.outputs, result);
}
