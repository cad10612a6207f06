// The property bag a resource registers, taken from its definition (definitions/): the
// inputs from the program's arguments, the secret ones wrapped, and every output undefined,
// so that the engine registers it as an output of the resource. Used by the dynamic
// resources and the plugin's (provider/embedded/) alike; this is where the dynamic host
// applies the definition's secrets (the plugin applies them itself: hosts/plugin/outgoing.ts).
import * as pulumi from "@pulumi/pulumi";
import { SECRET_INPUTS } from "../../schema/checks";
import { secretKeys, type ResourceDefinition } from "../../schema/property";
import { defaultAccountIsSecret, warnOfPlainSecretSettings } from "../../settings/program-stack-config";

export function resourceProps(definition: ResourceDefinition, args: object | undefined): pulumi.Inputs {
  // Both hosts (the plugin also reads the stack file itself, for the programs of other languages).
  warnOfPlainSecretSettings();
  const given = (args ?? {}) as Record<string, unknown>;
  const props: pulumi.Inputs = {};
  for (const [name, property] of Object.entries(definition.inputs)) {
    const value = given[name];
    props[name] = property.secret && value !== undefined ? pulumi.secret(value) : value;
  }
  for (const name of Object.keys(definition.outputs)) props[name] = undefined;
  return props;
}

/**
 * A dynamic resource's property bag: resourceProps, and the names of the inputs that are
 * secret (SECRET_INPUTS). Its provider gets every input unwrapped, so this is how its check
 * knows which values it may not quote (schema/checks.ts, `secretAwareCheck`).
 */
export function dynamicResourceProps(definition: ResourceDefinition, args: object | undefined): pulumi.Inputs {
  const props = resourceProps(definition, args);
  const names = Object.keys(definition.inputs).filter((name) => props[name] !== undefined);
  // The default sub-account stands in for an accountId not given: a secret one is refused as a secret id.
  const defaulted = Object.hasOwn(definition.inputs, "accountId") && props.accountId === undefined;
  const fromConfig = defaulted && defaultAccountIsSecret() ? ["accountId"] : [];
  const secret = Promise.all(
    names.map(async (name) => ((await pulumi.isSecret(pulumi.output(props[name]))) ? [name] : [])),
  ).then((found) => [...found, fromConfig]);
  return { ...props, [SECRET_INPUTS]: pulumi.output(secret.then((found) => found.flat())) };
}

/** The resource option `additionalSecretOutputs`: the caller's, and the definition's secret outputs whatever it says. */
export function withSecretOutputs<T extends pulumi.CustomResourceOptions>(
  definition: ResourceDefinition,
  opts: T | undefined,
): T {
  const names = [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secretKeys(definition.outputs)])];
  return { ...opts, additionalSecretOutputs: names } as T;
}
