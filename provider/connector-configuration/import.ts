// `pulumi import` of a ConnectorConfiguration without printing its values.
// The engine writes the code it generates from the inputs the import's Read returns (every
// input property, a secret one as `secret("<value>")`: in clear), and it offers a provider no
// way to have a value read from config instead. So the imported inputs hold no value at all:
// `secretConfig` is empty, and a hidden input names the fields the service holds. The values
// stay in the service; the outputs' digests (of exactly those values) still tell drift.
//
// An empty secretConfig must never be applied: it would clear the fields. So until the program
// declares every imported field, its check refuses, naming the fields to set (the comment the
// engine cannot write into the generated code), and nothing is written.
import type { ConnectorConfigurationView } from "../client";
import { secretFieldIds, type SecretTypesSource } from "../schema/secret-fields";
import { descriptorsOf } from "./rules";

type Props = Record<string, unknown>;

/** The hidden input of an imported configuration: the fields the service held, which the program must declare. */
export const IMPORTED_FIELDS = "__importedFields";

interface ImportedFields {
  /** The fields with a value the service returned (every field but a secret one). */
  fields: string[];
  /** The secret fields (schema/secret-fields.ts): the service never returns their values. */
  passwords: string[];
}

/** The imported inputs: ids, no value, and which fields the program must set. */
export function importedInputs(
  view: ConnectorConfigurationView,
  ids: { connectorId: string; accountId: string; configurationId: unknown },
  values: Props,
  profile: SecretTypesSource,
): Props {
  const settable = descriptorsOf(view).filter((field) => !field.readonly);
  const imported: ImportedFields = {
    fields: Object.keys(values).sort(),
    passwords: secretFieldIds(settable, profile),
  };
  return { ...ids, secretConfig: {}, [IMPORTED_FIELDS]: imported };
}

function importedFieldsOf(inputs: Props): ImportedFields | undefined {
  const found = inputs[IMPORTED_FIELDS] as Partial<ImportedFields> | undefined;
  if (!found || !Array.isArray(found.fields) || !Array.isArray(found.passwords)) return undefined;
  return { fields: found.fields.map(String), passwords: found.passwords.map(String) };
}

/** The fields to declare; the Password fields either from a secret or, the customer's own, left to the service. */
function what(imported: ImportedFields): string {
  const { passwords } = imported;
  const held = passwords.map((id) => JSON.stringify(id)).join(", ");
  const toDeclare =
    passwords.length > 0
      ? `; and its Password fields (${passwords.join(", ")}), which no import reads: each from a secret too, or, ` +
        `where the customer holds it and this stack does not, \`heldByService: [${held}]\` instead (never sent, ` +
        `so never cleared; an adoption with no change: docs/configuration-ownership.md#passwords-the-service-holds)`
      : "";
  return `${imported.fields.join(", ") || "(none)"}${toDeclare}`;
}

/** What `pulumi import` shows under the resource: what it left out, and what to declare. */
export function importNotice(inputs: Props): string | undefined {
  const imported = importedFieldsOf(inputs);
  if (!imported) return undefined;
  return (
    `secretConfig was imported without its values: neither the state nor the code pulumi import prints holds ` +
    `them (they stay in the service). A program written by \`generate\` declares them already: nothing to do ` +
    `(\`pulumi import\` runs no program, so it cannot tell). Otherwise declare secretConfig in the program, each value read from a secret ` +
    `(config.requireSecret), with the fields: ${what(imported)}; until then \`pulumi up\` refuses to write ` +
    `this configuration (docs/import.md)`
  );
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

/**
 * The check's refusal of a program that declares an imported configuration without every field
 * the import found (the generated `secretConfig: {}` as it is, say); undefined once it does, and
 * for the import's own check (its inputs carry the hidden input, a program's never do).
 */
export function undeclaredImportedFields(olds: Props, news: Props): string | undefined {
  const imported = importedFieldsOf(olds);
  if (!imported || news[IMPORTED_FIELDS] !== undefined) return undefined;
  const declared = news.secretConfig;
  if (declared === null || typeof declared !== "object" || Array.isArray(declared)) return undefined;
  const missing = imported.fields.filter((id) => isEmpty((declared as Props)[id]));
  if (missing.length === 0) return undefined;
  return (
    `secretConfig does not declare ${missing.join(", ")}: this configuration was imported without its values ` +
    `(pulumi import keeps them out of the state and of the code it prints), and writing it without them would ` +
    `clear them. Declare every field, each value read from a secret (config.requireSecret): ${what(imported)} ` +
    `(docs/import.md)`
  );
}
