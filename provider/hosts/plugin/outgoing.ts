// What leaves the plugin: every handler turns its result into the wire Struct here, and only
// here. Which properties are secret comes from the definitions (schema/secrets.ts, and
// SETTINGS for the provider's own): no handler names one.
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { secretKeys } from "../../schema/property";
import { SETTINGS } from "../../settings/resolve";
import { UNKNOWN } from "../../schema/checks";
import { toStruct, type Props, type Unwrapped } from "./wire";

/** How a kind of properties leaves: its always-secret names, and the inputs that are never outputs. */
export interface Outgoing {
  readonly secrets: readonly string[];
  readonly inputOnly: readonly string[];
}

/** The provider's own settings (CheckConfig). */
export const PROVIDER_SETTINGS: Outgoing = { secrets: secretKeys(SETTINGS), inputOnly: [] };

/**
 * Properties as the wire Struct: the definition's secret names and every name that arrived
 * secret (in any of `arrived`) wrapped as secrets, once. As outputs, the input-only properties
 * are left out (also when an older state still holds them).
 */
export function outgoing(
  kind: Outgoing,
  props: Props,
  arrived: readonly Unwrapped[],
  as: "inputs" | "outputs",
): Struct {
  const kept =
    as === "outputs"
      ? Object.fromEntries(Object.entries(props).filter(([name]) => !kind.inputOnly.includes(name)))
      : props;
  return toStruct(kept, [...kind.secrets, ...arrived.flatMap((unwrapped) => [...unwrapped.secrets])]);
}

/**
 * The outputs of a preview Create or Update (Configure answers `supportsPreview`): the echoed
 * inputs that are neither input-only, secret by definition, nor arrived secret, and every
 * output of the provider unknown. Without preview support the engine would hand all the checked
 * inputs back as outputs, and the program's SDK prints its RegisterResource response under
 * `--debug`: secrets with their plaintext. Nothing is asked of the service.
 */
export function previewOutputs(kind: Outgoing & { readonly outputs: readonly string[] }, inputs: Unwrapped): Struct {
  const left = new Set([...kind.inputOnly, ...kind.secrets, ...inputs.secrets]);
  const echoed = Object.entries(inputs.props).filter(([name]) => !left.has(name) && !name.startsWith("__"));
  const unknown = kind.outputs.map((name) => [name, UNKNOWN] as const);
  return toStruct(Object.fromEntries([...echoed, ...unknown]), kind.secrets);
}
