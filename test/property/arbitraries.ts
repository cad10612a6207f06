// Shared fast-check arbitraries of the property tests: ids valid and invalid, and any JSON-ish value.
import fc from "fast-check";

export const ID = /^[A-Za-z0-9]{16}$/;

export function isValidId(value: unknown): boolean {
  return typeof value === "string" && ID.test(value);
}

/** A well-formed 16-character alphanumeric id. */
export const validId = fc.stringMatching(ID);

/** Anything a program could pass: scalars, lists, objects, null. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 20 }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

/** Ids that must be refused: wrong length or characters, other types, near misses. */
export const invalidId: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 24 }).filter((s) => !ID.test(s)),
  validId.map((id) => `${id}0`),
  validId.map((id) => id.slice(1)),
  validId.map((id) => `${id.slice(0, 15)}-`),
  validId.map((id) => `${id.slice(0, 8)}/../${id.slice(0, 4)}`),
  validId.map((id) => ` ${id.slice(1)}`),
  anyValue.filter((v) => typeof v !== "string"),
);
