// Shared fast-check arbitraries of the property tests: ids valid and invalid, any JSON-ish
// value, and secretConfig values per field type.
import fc from "fast-check";
import type { CatalogueConnector } from "../../service/seed/catalogue";

import { ID_PATTERN as ID } from "../../contract/ids";

export { ID };

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

type Field = CatalogueConnector["secretConfiguration"]["fields"][number];

/** Dates the service's rule accepts, in each of its forms (date, minutes, seconds, fraction, offset). */
const validDate = fc
  .tuple(
    fc.date({ min: new Date("1971-01-01T00:00:00Z"), max: new Date("2098-12-31T00:00:00Z"), noInvalidDate: true }),
    fc.nat(4),
  )
  .map(([date, form]) => {
    const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
    return [iso.slice(0, 10), iso.slice(0, 16), `${iso.slice(0, 19)}Z`, iso, `${iso.slice(0, 19)}+02:00`][form];
  });

/** What a program could pass for one field: its valid forms (string forms included), near misses and anything. */
export function fieldValue(field: Field): fc.Arbitrary<unknown> {
  const options = (field.options ?? []).map(String);
  const min = field.min ?? 0;
  const max = field.max ?? 1_000_000;
  const misses = fc.oneof(fc.constantFrom("", " ", ",", []), anyValue);
  switch (field.type) {
    case "Number":
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min, max }) },
        { weight: 2, arbitrary: fc.double({ min, max, noNaN: true }) },
        {
          weight: 4, // the string forms the service takes: "100.0", " 7 ", "1e1"
          arbitrary: fc
            .tuple(fc.integer({ min, max }), fc.constantFrom("", ".0", ".50", "e0"), fc.constantFrom("", " "))
            .map(([n, suffix, pad]) => `${pad}${n}${suffix}${pad}`),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(min - 1, max + 1, "1e3", "0x10", "Infinity", "-0", "lots", Number.NaN),
        },
        { weight: 1, arbitrary: misses },
      );
    case "Date":
      return fc.oneof(
        { weight: 8, arbitrary: validDate },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            "nope",
            "2030-13-01",
            "2030-02-30",
            "2030-01-31T25:00",
            "2030-1-31",
            "2030-01-31 10:00",
            "31/01/2030",
          ),
        },
        { weight: 1, arbitrary: misses },
      );
    case "Select":
      return fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...options) },
        { weight: 1, arbitrary: fc.constantFrom(...options).map((o) => [` ${o}`, o.toLowerCase(), [o]][o.length % 3]) },
        { weight: 1, arbitrary: misses },
      );
    case "Multi-Select": {
      const chosen = fc.shuffledSubarray(options);
      return fc.oneof(
        { weight: 4, arbitrary: chosen },
        {
          weight: 4,
          arbitrary: fc.tuple(chosen, fc.constantFrom(",", ", ", " ,")).map(([items, sep]) => items.join(sep)),
        },
        { weight: 1, arbitrary: chosen.map((items) => [...items, "bad"]) },
        { weight: 1, arbitrary: misses },
      );
    }
    default: // Text, Password
      return fc.oneof(
        { weight: 10, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
        { weight: 1, arbitrary: misses },
      );
  }
}

/**
 * A secretConfig for these fields: required ones mostly present, optional ones half the time,
 * read-only ones and unknown ids now and then.
 */
export function secretConfigFor(fields: readonly Field[]): fc.Arbitrary<Record<string, unknown>> {
  const entries = fields.map((field) => {
    const absent = field.readonly ? 14 : field.required ? 1 : 6;
    const value = field.readonly ? fc.constant(field.value ?? "x") : fieldValue(field);
    const present = field.readonly ? 1 : field.required ? 24 : 6;
    return fc
      .oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: present, arbitrary: value })
      .map((v) => [field.id, v] as const);
  });
  const unknownIds = fc.oneof(
    { weight: 14, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), anyValue, { maxKeys: 1 }) },
  );
  return fc.tuple(fc.tuple(...entries), unknownIds).map(([pairs, extra]) => {
    const config: Record<string, unknown> = { ...extra };
    for (const [id, value] of pairs) if (value !== undefined) config[id] = value;
    return config;
  });
}
