// The plugin's resource operations: the same implementations as the dynamic resources
// (resources/*-impl.ts), with what the provider protocol adds: every input is echoed as an
// output (but the input-only ones), secrets leave as secrets (outgoing.ts), and a Read without
// properties is an import.
import { isId } from "../../../contract/ids";
import { withSaltInput } from "../../connector-configuration/digest-salt";
import * as addedConnector from "../../added-connector/steps";
import * as connectorConfiguration from "../../connector-configuration/steps";
import { ADDED_CONNECTOR } from "../../schema/added-connector";
import { CONNECTOR_CONFIGURATION } from "../../schema/connector-configuration";
import { token } from "../../schema/package-schema";
import type { ResourceDefinition } from "../../schema/property";
import { inputOnlyKeys, resourceSecrets } from "../../schema/secrets";
import type { Outgoing } from "./outgoing";
import type { Props } from "./wire";

/** What each `*-impl` module offers (the dynamic provider's operations). */
interface Implementation {
  /** `secretInputs`: the inputs that arrived secret (named by kind, never quoted, in failures). */
  check(
    olds: Props,
    news: Props,
    secretInputs?: Iterable<string>,
  ): Promise<{ inputs?: Props; failures?: { property: string; reason: string }[] }>;
  /** `detailedDiff`: property path → change (the plugin's detailed diff), when the implementation names them. */
  diff(
    id: string,
    olds: Props,
    news: Props,
  ): Promise<{
    changes?: boolean;
    replaces?: string[];
    deleteBeforeReplace?: boolean;
    detailedDiff?: Record<string, { kind: "add" | "delete" | "update"; inputDiff: boolean }>;
  }>;
  create(inputs: Props): Promise<{ id: string; outs?: Props }>;
  /** `inputs`: the stored inputs (the plugin's Read has them; the dynamic provider's has not). */
  read(id: string, props?: Props, inputs?: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs?: Props }>;
  /** `urn`: the resource's, when the host knows it (the plugin), for the warnings about it. */
  remove(id: string, props: Props, urn?: string): Promise<void>;
}

export interface ResourceType extends Outgoing {
  definition: ResourceDefinition;
  /** The provider's own outputs (unknown in a preview). */
  outputs: readonly string[];
  implementation: Implementation;
  /** The checked inputs with the hidden inputs the definition declares set (`olds`: the stored inputs). */
  withHiddenInputs(olds: Props, inputs: Props): Props;
  /**
   * Read without properties: the resource as it is now, with inputs; throws when it does not
   * exist. `notice`: what the user must know of the import (shown under the resource).
   */
  importExisting(id: string): Promise<{ id: string; props: Props; inputs: Props; notice?: string }>;
}

function checkImportId(type: string, id: string): { accountId: string; connectorId: string } {
  const at = id.lastIndexOf("/");
  const accountId = id.slice(0, at);
  const connectorId = id.slice(at + 1);
  if (at <= 0 || !isId(connectorId)) {
    throw new Error(
      `cannot import ${type} ${JSON.stringify(id)}: the id must be <accountId>/<connectorId>, e.g. 239a5bbdbe543163/48e6ff62fb2b1dfa`,
    );
  }
  return { accountId, connectorId };
}

async function importAddedConnector(id: string): Promise<{ id: string; props: Props; inputs: Props }> {
  const { accountId, connectorId } = checkImportId("AddedConnector", id);
  const found = await addedConnector.read(id, { accountId, connectorId, adoptExisting: false });
  if (!found.id || !found.props) {
    throw new Error(
      `cannot import AddedConnector ${id}: connector ${connectorId} is not added to sub-account ${accountId}`,
    );
  }
  return { id: found.id, props: found.props, inputs: found.inputs ?? { connectorId, accountId, adoptExisting: false } };
}

async function importConfiguration(id: string): ReturnType<ResourceType["importExisting"]> {
  checkImportId("ConnectorConfiguration", id);
  return connectorConfiguration.importExisting(id);
}

function resourceType(
  definition: ResourceDefinition,
  implementation: Implementation,
  importExisting: ResourceType["importExisting"],
  withHiddenInputs: ResourceType["withHiddenInputs"] = (_olds, inputs) => inputs,
): ResourceType {
  return {
    definition,
    implementation,
    importExisting,
    withHiddenInputs,
    secrets: resourceSecrets(definition),
    inputOnly: inputOnlyKeys(definition),
    outputs: Object.keys(definition.outputs),
  };
}

export const RESOURCE_TYPES: ReadonlyMap<string, ResourceType> = new Map([
  [token(ADDED_CONNECTOR.name), resourceType(ADDED_CONNECTOR, addedConnector, importAddedConnector)],
  [
    token(CONNECTOR_CONFIGURATION.name),
    resourceType(CONNECTOR_CONFIGURATION, connectorConfiguration, importConfiguration, withSaltInput),
  ],
]);

/** The type token of a URN (`urn:pulumi:stack::project::[parent$]type::name`). */
export function typeOfUrn(urn: string): string {
  const parts = urn.split("::");
  const qualified = parts[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

export function resourceTypeOf(urn: string, type?: string): ResourceType {
  const name = type || typeOfUrn(urn);
  const found = RESOURCE_TYPES.get(name);
  if (!found)
    throw new Error(
      `the embedded provider has no resource type ${JSON.stringify(name)}; it has ${[...RESOURCE_TYPES.keys()].join(", ")}`,
    );
  return found;
}

/** Outputs: every input echoed (as checked), then what the implementation returned. */
export function withInputs(inputs: Props, outs: Props | undefined): Props {
  const echoed = Object.fromEntries(Object.entries(inputs).filter(([key]) => !key.startsWith("__")));
  return { ...echoed, ...(outs ?? {}) };
}
