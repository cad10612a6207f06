// The property bag a resource registers, taken from its definition (definitions/): the
// inputs from the program's arguments, the secret ones wrapped, and every output undefined,
// so that the engine registers it as an output of the resource. Used by the dynamic
// resources and the plugin's (provider/embedded/) alike.
import * as pulumi from "@pulumi/pulumi";
import { secretKeys, type ResourceDefinition } from "../definitions/property";

export function resourceProps(definition: ResourceDefinition, args: object | undefined): pulumi.Inputs {
  const given = (args ?? {}) as Record<string, unknown>;
  const props: pulumi.Inputs = {};
  for (const [name, property] of Object.entries(definition.inputs)) {
    const value = given[name];
    props[name] = property.secret && value !== undefined ? pulumi.secret(value) : value;
  }
  for (const name of Object.keys(definition.outputs)) props[name] = undefined;
  return props;
}

/** The resource option `additionalSecretOutputs`: the caller's, and the definition's secret outputs whatever it says. */
export function withSecretOutputs<T extends pulumi.CustomResourceOptions>(definition: ResourceDefinition, opts: T | undefined): T {
  const names = [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secretKeys(definition.outputs)])];
  return { ...opts, additionalSecretOutputs: names } as T;
}
