// The check of ConnectorConfiguration (both hosts): its inputs against the live field
// descriptors, in the service's normalised forms; and which inputs the diff compares. Split
// from connector-configuration-impl.ts, which re-exports `check` (states name that path).
import { isDeepStrictEqual } from "node:util";
import { isId } from "../../contract/ids";
import { isUnknown, secretAwareCheck, shown, typeFailures } from "../schema/checks";
import { CONNECTOR_CONFIGURATION } from "../schema/connector-configuration";
import { inPlaceKeys, replaceOnChangeKeys } from "../schema/property";
import type { CheckFailure, CheckResult } from "@pulumi/pulumi/dynamic";
import type { ConnectorConfigurationView } from "../client";
import { accountIdFor, currentClient, warnOnce } from "../runtime/runtime";
import { cachedConfiguration } from "./process";
import { statusOf, withRequestId } from "../client/service-failures";
import { descriptorsOf, normalisesTo, validateSecretConfig } from "./rules";
import { hiddenFields } from "./field-digests";
import type { SecretTypesSource } from "../schema/secret-fields";
import { notePasswords, noteStoredFields } from "./password-changes";
import { accountIdProblem } from "../schema/resource-ids";
import { IMPORTED_FIELDS, undeclaredImportedFields } from "./import";
import { configureWrites, heldFieldFailures, heldFields, heldPasswordsRefusal } from "./held-passwords";

type Props = Record<string, unknown>;

/**
 * Validates ids and secretConfig against the live descriptors; reads only (GET). An input that
 * arrived secret is named by its kind, never quoted (schema/checks.ts).
 */
export const check = secretAwareCheck(
  CONNECTOR_CONFIGURATION.inputs,
  async (olds: Props, news: Props, secrets: ReadonlySet<string>): Promise<CheckResult> => {
    const failures: CheckFailure[] = typeFailures(CONNECTOR_CONFIGURATION.inputs, news, [
      "configurationId",
      "name",
      "secretName",
      "adoptExisting",
      "heldByService",
    ]);
    const inputs: Props = { ...news };
    const { connectorId, configurationId, secretConfig } = news;
    const idOk = typeof connectorId === "string" && isId(connectorId);
    if (!isUnknown(connectorId) && !idOk) {
      failures.push({
        property: "connectorId",
        reason: `connectorId must be a 16-character alphanumeric connector id, got ${shown(connectorId, secrets.has("connectorId"))}`,
      });
    }
    let accountId = news.accountId;
    if (accountId === undefined || accountId === null) {
      try {
        accountId = inputs.accountId = accountIdFor(undefined);
      } catch (error) {
        failures.push({ property: "accountId", reason: error instanceof Error ? error.message : String(error) });
      }
    } else {
      const problem = accountIdProblem(accountId, secrets.has("accountId"));
      if (problem) failures.push({ property: "accountId", reason: problem });
    }
    const configOk = secretConfig !== null && typeof secretConfig === "object" && !Array.isArray(secretConfig);
    if (!isUnknown(secretConfig) && !configOk) {
      failures.push({
        property: "secretConfig",
        reason: `secretConfig must be an object of field id to value, got ${Array.isArray(secretConfig) ? "a list" : typeof secretConfig}`,
      });
    }
    const undeclared = configOk ? undeclaredImportedFields(olds, news) : undefined;
    if (undeclared) failures.push({ property: "secretConfig", reason: undeclared });
    if (failures.length > 0 || !idOk || typeof accountId !== "string" || isUnknown(accountId))
      return { inputs, failures };
    // What diff compares the program with when the state's digestKey changed (password-changes.ts).
    noteStoredFields(accountId, connectorId, olds.secretConfig);
    if (sameAsApplied(olds, inputs, COMPARED_KEYS)) {
      // What the state holds passed this check and the service's own validation when it was
      // applied; nothing will be sent for it, so a no-change preview costs no call.
      inputs.configurationId = olds.configurationId;
      inputs.secretConfig = olds.secretConfig; // its normalised form, which the state holds
      return { inputs, failures };
    }

    let view: ConnectorConfigurationView;
    let profile: SecretTypesSource;
    try {
      const { client, settings } = currentClient();
      profile = settings.profile;
      view = await cachedConfiguration(client, settings.baseUrl, accountId, connectorId as string);
    } catch (error) {
      const status = statusOf(error);
      if (status === 404 && (await inCatalogue(accountId, connectorId as string))) {
        // A service that describes a connector's fields only once it is added (its AddedConnector
        // is created in this same run): the fields are checked at create instead.
        warnOnce(
          "configuration-before-add",
          "the service answers Get Connector Configuration with 404 for a connector not yet added: the " +
            "secretConfig of a ConnectorConfiguration whose connector this run adds is checked when it is created, " +
            "not in preview",
        );
        return { inputs, failures };
      }
      const property = status === 403 || status === 400 ? "accountId" : "connectorId";
      const connector = secrets.has("connectorId") ? shown(connectorId, true) : connectorId;
      const account = secrets.has("accountId") ? shown(accountId, true) : accountId;
      const what =
        status === 404
          ? `there is no connector ${connector} in the catalogue`
          : `could not read the fields of connector ${connector}`;
      const message = error instanceof Error ? error.message : String(error);
      failures.push({ property, reason: withRequestId(`${what} (sub-account ${account}): ${message}`, error) });
      return { inputs, failures };
    }
    const first = view.secretConfig[0]?.configurationId;
    if (configurationId === undefined || configurationId === null) {
      if (first !== undefined) inputs.configurationId = first;
    } else if (!isUnknown(configurationId) && first !== undefined && configurationId !== first) {
      failures.push({
        property: "configurationId",
        reason: `configurationId must be the first secret configuration's id (${first}); only that one can be saved, got ${shown(configurationId, secrets.has("configurationId"))}`,
      });
    }
    if (configOk) {
      // The inputs check returns are what is stored, sent and compared: the service's forms
      // ("100.0" → 100, "a, b" → ["a", "b"]), or every diff would see "100.0" ≠ "100".
      const held = heldFields(news.heldByService);
      const descriptors = descriptorsOf(view);
      const validated = validateSecretConfig(connectorId as string, descriptors, secretConfig as Props, held);
      failures.push(...validated.failures);
      failures.push(...heldFieldFailures(connectorId as string, held, descriptors, secretConfig as Props, profile));
      // A write follows (a create, an update; not a change of heldByService alone), which would clear
      // them. After an import the stored inputs hold no value: the diff tells, by digests, whether
      // the program's values are the service's, and refuses a write itself.
      const writes = olds[IMPORTED_FIELDS] === undefined && !sameAsApplied(olds, inputs, WRITTEN_KEYS);
      if (held.length > 0 && writes && configureWrites(currentClient().settings) === "whole") {
        const where = `connector ${connectorId as string} of sub-account ${accountId}`;
        const what = typeof olds.configurationId === "string" ? "updating" : "creating";
        failures.push({ property: "heldByService", reason: heldPasswordsRefusal(where, held, what) });
      }
      inputs.secretConfig = validated.normalised;
      // The state keeps no digest of a Password: the stored inputs tell the diff whether one changed.
      notePasswords(accountId, connectorId, hiddenFields(view, profile), olds.secretConfig);
    }
    return { inputs, failures };
  },
);

/** Whether the catalogue has the connector (a 404 of Get Configuration then means "not added yet"). */
async function inCatalogue(accountId: string, connectorId: string): Promise<boolean> {
  try {
    await currentClient().client.getConnector(accountId, connectorId);
    return true;
  } catch {
    return false;
  }
}

/** The inputs whose change replaces the resource, and those compared as they are (the definition's). */
export const REPLACE_KEYS = replaceOnChangeKeys(CONNECTOR_CONFIGURATION);
// adoptExisting says what a create may overwrite, heldByService what a write leaves out:
// changing either alone writes nothing (and is no diff).
export const IN_PLACE_KEYS = inPlaceKeys(CONNECTOR_CONFIGURATION).filter(
  (key) => key !== "adoptExisting" && key !== "heldByService",
);
/** What sameAsApplied compares as it is: configurationId may be defaulted, secretConfig normalised. */
const WRITTEN_KEYS = [...REPLACE_KEYS, ...IN_PLACE_KEYS].filter((key) => key !== "configurationId");
const COMPARED_KEYS = [...WRITTEN_KEYS, "heldByService"];

/** Inputs equal to the last checked ones (olds) in `keys`, a defaulted configurationId and normalisation aside. */
function sameAsApplied(olds: Props, inputs: Props, keys: readonly string[]): boolean {
  if (typeof olds.configurationId !== "string") return false;
  const configurationId = inputs.configurationId ?? olds.configurationId;
  return (
    configurationId === olds.configurationId &&
    keys.every((key) => isDeepStrictEqual(olds[key], inputs[key])) &&
    normalisesTo(olds.secretConfig, inputs.secretConfig)
  );
}
