// The vocabulary of the one definition per resource and function. Each resource
// and function is described once, as data: the dynamic resources take their property
// lists from it, the plugin `embedded` its Pulumi package schema, and both hosts the
// type checks and which properties replace or are secret.

/** A property's type, in the terms of the Pulumi package schema. */
export type PropertyType =
  | "string"
  | "integer"
  | "number"
  | "boolean"
  | { readonly array: PropertyType }
  | { readonly map: PropertyType }
  | { readonly ref: string }
  | { readonly oneOf: readonly PropertyType[] }
  | { readonly enum: readonly string[] };

export interface PropertyDefinition {
  readonly type: PropertyType;
  /** What it is, and its default when it has one (shown in the schema and the SDKs). */
  readonly description: string;
  /** An input the user must give; an output that is always set. */
  readonly required?: boolean;
  /** Stored and shown as a secret whatever the program passes (the only place that says so: schema/secrets.ts applies it). */
  readonly secret?: boolean;
  /**
   * An input that is not echoed as an output: the state keeps it among the inputs only. For
   * values the outputs must not carry (a Password would reach the program's RegisterResource
   * response, which `pulumi up --debug` prints).
   */
  readonly inputOnly?: boolean;
  /** Changing it replaces the resource. */
  readonly replaceOnChange?: boolean;
  /**
   * Part of the resource's id (`<accountId>/<connectorId>`), which Pulumi keeps and prints in
   * plaintext (state, history, messages): check refuses it when it arrives secret
   * (schema/checks.ts, `secretAwareCheck`).
   */
  readonly idPart?: boolean;
  /** The value a missing input takes, when it is a constant. */
  readonly default?: string | number | boolean;
  /**
   * As an output, it may be absent (the generated TypeScript Outputs say `T | undefined`): an
   * optional input the provider does not default, or an output only some states carry.
   */
  readonly optionalOutput?: boolean;
}

export type Properties = Readonly<Record<string, PropertyDefinition>>;

export interface ResourceDefinition {
  /** The type's name: `embedded:index:<name>` in the plugin, `embedded-connectors:<name>` as a dynamic resource. */
  readonly name: string;
  readonly description: string;
  /** What the program passes (each is also an output, unless `inputOnly`). */
  readonly inputs: Properties;
  /** What only the provider sets. */
  readonly outputs: Properties;
  /**
   * Inputs the plugin's check sets itself (`__name`), whatever the program passes: not in the
   * schema nor the SDKs, never echoed as outputs, kept among the stored inputs.
   */
  readonly hiddenInputs?: Properties;
}

export interface FunctionDefinition {
  /** `embedded:index:<name>` in the plugin. */
  readonly name: string;
  readonly description: string;
  readonly inputs: Properties;
  readonly outputs: Properties;
}

export interface ObjectTypeDefinition {
  /** `embedded:index:<name>` in the schema. */
  readonly name: string;
  readonly description: string;
  readonly properties: Properties;
}

/** The inputs that are echoed as outputs (all but the `inputOnly` ones). */
export function echoedInputs(definition: ResourceDefinition): Properties {
  return Object.fromEntries(Object.entries(definition.inputs).filter(([, property]) => !property.inputOnly));
}

/** Every output of the resource: the echoed inputs first, then its own. */
export function allProperties(definition: ResourceDefinition): Properties {
  return { ...echoedInputs(definition), ...definition.outputs };
}

/** The names of the properties that replace the resource when they change. */
export function replaceOnChangeKeys(definition: ResourceDefinition): string[] {
  return Object.entries(definition.inputs)
    .filter(([, property]) => property.replaceOnChange)
    .map(([name]) => name);
}

/**
 * The inputs a diff compares as they are, whose change updates the resource in place: neither
 * replaceOnChange nor secret (a secret input's change is told by its digests, not its value).
 */
export function inPlaceKeys(definition: ResourceDefinition): string[] {
  return Object.entries(definition.inputs)
    .filter(([, property]) => !property.replaceOnChange && !property.secret)
    .map(([name]) => name);
}

/** The names of the properties (or provider settings) that are always secret. */
export function secretKeys(properties: Readonly<Record<string, { readonly secret?: boolean }>>): string[] {
  return Object.entries(properties)
    .filter(([, property]) => property.secret)
    .map(([name]) => name);
}

/** "a string", "a boolean", …: how a check message names the expected type. */
export function typeName(type: PropertyType): string {
  if (type === "integer") return "an integer";
  if (type === "number") return "a finite number"; // NaN and Infinity are numbers to JavaScript, not to a check
  if (typeof type === "string") return `a ${type}`;
  if ("array" in type) return "a list";
  if ("map" in type || "ref" in type) return "an object";
  if ("enum" in type) return `one of ${type.enum.join(", ")}`;
  return type.oneOf.map(typeName).join(" or ");
}

/** Whether a (known, non-null) value has the type; objects of a `ref` type are only checked to be objects. */
export function hasType(value: unknown, type: PropertyType): boolean {
  if (type === "string") return typeof value === "string";
  if (type === "boolean") return typeof value === "boolean";
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  if ("array" in type) return Array.isArray(value) && value.every((item) => hasType(item, type.array));
  if ("map" in type) {
    return isRecord(value) && Object.values(value).every((item) => hasType(item, type.map));
  }
  if ("ref" in type) return isRecord(value);
  if ("enum" in type) return typeof value === "string" && type.enum.includes(value);
  return type.oneOf.some((option) => hasType(value, option));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * `true` when the interface T names exactly the properties P: the public interfaces (Args,
 * Outputs) are written out for their documentation, and this keeps them to the definition.
 */
export type SameKeys<T, P> = [keyof T] extends [keyof P] ? ([keyof P] extends [keyof T] ? true : false) : false;

/** The TypeScript type of values of a property type. */
export type ValueOf<T> = T extends "string"
  ? string
  : T extends "boolean"
    ? boolean
    : T extends "integer" | "number"
      ? number
      : T extends { readonly array: infer I }
        ? ValueOf<I>[]
        : T extends { readonly map: infer V }
          ? Record<string, ValueOf<V>>
          : T extends { readonly oneOf: readonly (infer O)[] }
            ? ValueOf<O>
            : T extends { readonly enum: readonly (infer E)[] }
              ? E
              : unknown;

/** The values of a property list: required ones present, the others optional. */
export type ValuesOf<P extends Properties> = {
  -readonly [K in keyof P as P[K] extends { readonly required: true } ? K : never]: ValueOf<P[K]["type"]>;
} & {
  -readonly [K in keyof P as P[K] extends { readonly required: true } ? never : K]?: ValueOf<P[K]["type"]>;
};
