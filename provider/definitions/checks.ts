// What both hosts check of a resource's inputs, taken from its definition: the type of each
// given value, the constant defaults, and the zod schema that parses checked inputs. The
// rules that need more than a type (the connector id's form, the sub-account rule, the live
// field descriptors) stay with each resource's implementation.
import { z } from "zod";
import { hasType, isRecord, typeName, type Properties, type PropertyType, type ValuesOf } from "./property";

/** pulumi's unknownValue: how an unknown input reaches a provider during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface InputFailure {
  property: string;
  reason: string;
}

/** "a number", "a list", …: the kind of a value, never the value (it may be a secret). */
export function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when the value or anything inside it is unknown. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  return isRecord(value) && Object.values(value).some(containsUnknown);
}

/** One failure per named input that is given (known, not null) with the wrong type. */
export function typeFailures(properties: Properties, values: Record<string, unknown>, names: readonly string[]): InputFailure[] {
  const failures: InputFailure[] = [];
  for (const name of names) {
    const value = values[name];
    if (value === undefined || value === null || containsUnknown(value)) continue;
    if (!hasType(value, properties[name].type)) {
      failures.push({ property: name, reason: `${name} must be ${typeName(properties[name].type)}, got ${kindOf(value)}` });
    }
  }
  return failures;
}

/** The inputs with each missing one that has a constant default set to it. */
export function withDefaults(properties: Properties, values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values };
  for (const [name, property] of Object.entries(properties)) {
    if ((out[name] === undefined || out[name] === null) && property.default !== undefined) out[name] = property.default;
  }
  return out;
}

function zodType(type: PropertyType): z.ZodType {
  if (type === "string") return z.string();
  if (type === "boolean") return z.boolean();
  if (type === "integer") return z.number().int();
  if (type === "number") return z.number();
  if ("array" in type) return z.array(zodType(type.array));
  if ("map" in type) return z.record(z.string(), zodType(type.map));
  if ("ref" in type) return z.looseObject({});
  if ("enum" in type) return z.string();
  const [first, second, ...rest] = type.oneOf.map(zodType);
  return second ? z.union([first, second, ...rest]) : first;
}

/** The zod schema of checked inputs: required ones present, each of its type; other keys kept. */
export function inputSchema<P extends Properties>(properties: P): z.ZodType<ValuesOf<P> & Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(properties)) {
    shape[name] = property.required ? zodType(property.type) : zodType(property.type).optional();
  }
  return z.looseObject(shape) as unknown as z.ZodType<ValuesOf<P> & Record<string, unknown>>;
}
