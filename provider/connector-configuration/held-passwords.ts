// Password fields the service holds and this stack does not: a customer's own
// key, entered in the service's UI. `heldByService` names them; they are never sent, so never
// cleared, on a service whose Configure keeps the fields a body leaves out (profile
// `semantics.configureWrites: given`). On a service whose Configure replaces the whole
// configuration (the contract's PUT, `whole`), any write of such a configuration would clear
// them: it is refused before anything is sent, at preview (check and diff) and at the write.
import { DEFAULT_PROFILE } from "../../contract/profile";
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import type { ProviderSettings } from "../settings/resolve";
import { secretFieldIds, type SecretTypesSource } from "../schema/secret-fields";
import type { FieldDescriptor } from "./rules";

/** The held field ids of an input (an absent or unknown list holds none). */
export function heldFields(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
}

/** What the service does with a field a Configure body leaves out, by the settings' profile. */
export function configureWrites(settings: Pick<ProviderSettings, "profile">): "whole" | "given" {
  return (settings.profile ?? DEFAULT_PROFILE).semantics.configureWrites;
}

/** Each held field must be a secret field (a Password: schema/secret-fields.ts) of the connector, and not also given a value. */
export function heldFieldFailures(
  connectorId: string,
  held: readonly string[],
  descriptors: readonly FieldDescriptor[],
  secretConfig: Readonly<Record<string, unknown>>,
  profile: SecretTypesSource,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const passwords = secretFieldIds(descriptors, profile);
  for (const id of new Set(held)) {
    if (!passwords.includes(id)) {
      const known = passwords.length > 0 ? `its Password fields are: ${passwords.join(", ")}` : "it has none";
      failures.push({
        property: "heldByService",
        reason: `field "${id}" is not a Password field of connector ${connectorId}; only a Password can be left to the service (${known})`,
      });
    } else if (Object.hasOwn(secretConfig, id)) {
      failures.push({
        property: "heldByService",
        reason: `field "${id}" is both in secretConfig and in heldByService; remove it from one of them (in heldByService, the service keeps its own value)`,
      });
    }
  }
  return failures;
}

/**
 * The refusal of a write that would clear held Passwords: names the connector, the held
 * fields, why, and what to set. `what`: the write refused ("creating", "updating").
 */
export function heldPasswordsRefusal(where: string, held: readonly string[], what: string): string {
  return (
    `${what} the configuration of ${where} would clear the Password fields the service holds (heldByService: ` +
    `${held.join(", ")}): this service replaces the whole configuration on Configure (service profile ` +
    "`semantics.configureWrites: whole`), and this stack does not hold those values. Nothing was sent. Either " +
    "give them in secretConfig (from a secret) and drop them from heldByService, or keep the other fields as the " +
    "service holds them (`pulumi refresh` shows which changed). A service that keeps the fields a Configure " +
    "leaves out can be told so in its profile (`semantics.configureWrites: given`; `doctor --write-check` finds it)."
  );
}
