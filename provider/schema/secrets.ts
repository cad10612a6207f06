// Which values are secret, derived from the one definition (property.ts `secret`): the hosts
// apply these and never name a secret property themselves. A function's output is secret when
// it is marked so or holds a property that is (through lists, maps and object types).
import { OBJECT_TYPES } from "./functions";
import {
  secretKeys,
  type FunctionDefinition,
  type Properties,
  type PropertyType,
  type ResourceDefinition,
} from "./property";

/** A resource's always-secret properties: its secret inputs (hidden ones too) and outputs. */
export function resourceSecrets(definition: ResourceDefinition): string[] {
  const hidden = definition.hiddenInputs ?? {};
  return [...secretKeys(definition.inputs), ...secretKeys(definition.outputs), ...secretKeys(hidden)];
}

/** The inputs a resource never echoes as outputs (its hidden inputs among them). */
export function inputOnlyKeys(definition: ResourceDefinition): string[] {
  return [
    ...Object.entries(definition.inputs)
      .filter(([, property]) => property.inputOnly)
      .map(([name]) => name),
    ...Object.keys(definition.hiddenInputs ?? {}),
  ];
}

function objectType(name: string): Properties {
  const found = OBJECT_TYPES.find((type) => type.name === name);
  if (!found) throw new Error(`internal: no object type ${name}`);
  return found.properties;
}

function holdsSecret(type: PropertyType): boolean {
  if (typeof type === "string" || "enum" in type) return false;
  if ("array" in type) return holdsSecret(type.array);
  if ("map" in type) return holdsSecret(type.map);
  if ("ref" in type) return Object.values(objectType(type.ref)).some((p) => p.secret || holdsSecret(p.type));
  return type.oneOf.some(holdsSecret);
}

/** A function's outputs that are secret: marked so, or holding a secret property. */
export function functionSecrets(definition: FunctionDefinition): string[] {
  return Object.entries(definition.outputs)
    .filter(([, property]) => property.secret || holdsSecret(property.type))
    .map(([name]) => name);
}

function stripped(type: PropertyType, value: unknown): unknown {
  if (value === null || typeof value !== "object" || typeof type === "string" || "enum" in type) return value;
  if ("array" in type) return Array.isArray(value) ? value.map((item) => stripped(type.array, item)) : value;
  if ("map" in type) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripped(type.map, v)]));
  if ("ref" in type) return withoutSecretValues(objectType(type.ref), value);
  return value;
}

/**
 * The value without its secret properties (at any depth): what a Promise form returns, since a
 * plain object cannot carry secretness. Only the Output forms hand secret values on, as secrets.
 */
export function withoutSecretValues<T>(properties: Properties, value: T): T {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const property = properties[name];
    if (property?.secret) continue;
    out[name] = property ? stripped(property.type, item) : item;
  }
  return out as T;
}
