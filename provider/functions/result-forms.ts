// The two forms of a lookup function, shared by the package's functions (functions/) and the
// plugin's (embedded/functions.ts): the Promise form leaves out what the definition says is
// secret, since a plain object cannot carry secretness; the Output form returns it as a secret.
import * as pulumi from "@pulumi/pulumi";
import type { FunctionDefinition } from "../definitions/property";
import { functionSecrets, withoutSecretValues } from "../definitions/secrets";
import type { InputArgs } from "./types";

/**
 * Lifts a lookup into its Output form: waits for the Inputs, keeps their secretness, and is a
 * secret Output when the definition says the result holds secrets (definitions/secrets.ts).
 */
export function outputForm<A extends object, R>(
  definition: FunctionDefinition,
  fn: (args: A) => Promise<R>,
): (args: InputArgs<A>) => pulumi.Output<R> {
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
