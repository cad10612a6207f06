// The two forms of a lookup function, shared by the package's functions (functions/) and the
// plugin's (hosts/sdk/functions.ts): the Promise form leaves out what the definition says is
// secret, since a plain object cannot carry secretness; the Output form returns it as a secret.
import * as pulumi from "@pulumi/pulumi";
import type { FunctionDefinition } from "../schema/property";
import { functionSecrets, withoutSecretValues } from "../schema/secrets";
import { withSecretArguments } from "./secret-arguments";
import type { InputArgs } from "./types";

/** The names of the arguments given as secret Outputs (`pulumi.secret(...)`, `config.requireSecret(...)`). */
async function secretNames(args: object): Promise<ReadonlySet<string>> {
  const names = await Promise.all(
    Object.entries(args).map(async ([name, value]) =>
      pulumi.Output.isInstance(value) && (await pulumi.isSecret(value)) ? name : undefined,
    ),
  );
  return new Set(names.filter((name): name is string => name !== undefined));
}

/**
 * Lifts a lookup into its Output form: waits for the Inputs, keeps their secretness, and is a
 * secret Output when the definition says the result holds secrets (schema/secrets.ts).
 * The lookup gets the names of the secret arguments with them (secret-arguments.ts): its
 * refusal names such an argument, never its value.
 */
export function outputForm<A extends object, R>(
  definition: FunctionDefinition,
  fn: (args: A) => Promise<R>,
): (args: InputArgs<A>) => pulumi.Output<R> {
  const secret = functionSecrets(definition).length > 0;
  return (args) => {
    // Not through pulumi.all: it would turn the Set into a plain object.
    const secrets = secretNames(args ?? {});
    const result = pulumi
      .output(args)
      .apply(async (resolved) =>
        fn(withSecretArguments(resolved as unknown as A, await secrets)),
      ) as unknown as pulumi.Output<R>;
    return secret ? (pulumi.secret(result) as unknown as pulumi.Output<R>) : result;
  };
}

/** A lookup's result as its Promise form returns it: without what the definition says is secret. */
export function promiseResult<R>(definition: FunctionDefinition, result: R): R {
  return withoutSecretValues(definition.outputs, result);
}
