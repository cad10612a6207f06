// `doctor --write-check`, on the scratch connector it added itself: what Configure does with a
// field its body leaves out (profile `semantics.configureWrites`). Configure once with every
// required field and one optional field the service returns (a Text where there is one, never
// a Password: a Password never comes back), then again without that optional field, and read it
// back: still there → `given` (the service keeps what a body leaves out); gone → `whole` (the
// contract's PUT). A required Password gets a random throwaway value, never printed; the
// connector, and with it its configuration, is removed by the write check right after.
import { randomBytes } from "node:crypto";
import { isSecretField, type SecretTypesSource } from "../schema/secret-fields";
import type { WireClient } from "./wire-client";
import { effectiveStatus, payloadOf } from "./shapes";

interface Descriptor {
  id: string;
  type?: string;
  required?: boolean;
  readonly?: boolean;
  options?: unknown;
  min?: unknown;
  value?: unknown;
}

export interface ConfigureProbe {
  /** undefined when it could not be told; the line says why. */
  configureWrites?: "whole" | "given";
  line: string;
}

/** The descriptors and the configuration id of a Get Configuration answer, in the contract's shape. */
export function configurationOf(body: unknown): { id?: string; fields: Descriptor[] } {
  const payload = payloadOf(body) as
    { configuration?: unknown; secretConfig?: { configurationId?: unknown; configuration?: unknown }[] } | undefined;
  const first = Array.isArray(payload?.secretConfig) ? payload.secretConfig[0] : undefined;
  const fields = Array.isArray(payload?.configuration)
    ? payload.configuration
    : Array.isArray(first?.configuration)
      ? first.configuration
      : [];
  const id = typeof first?.configurationId === "string" ? first.configurationId : undefined;
  return { id, fields: (fields as Descriptor[]).filter((f) => typeof f?.id === "string") };
}

/** A value the field accepts (a throwaway: the scratch connector is removed right after). */
function probeValue(field: Descriptor, profile: SecretTypesSource): unknown {
  if (isSecretField(field, profile)) return randomBytes(12).toString("hex");
  const options = Array.isArray(field.options) ? field.options.filter((o) => typeof o === "string") : [];
  switch (field.type) {
    case "Number":
      return typeof field.min === "number" ? field.min : 1;
    case "Date":
      return "2020-01-02";
    case "Select":
      return options[0] ?? "doctor-probe";
    case "Multi-Select":
      return options.slice(0, 1);
    default:
      return "doctor-probe";
  }
}

const returned = (field: Descriptor, profile: SecretTypesSource) => !isSecretField(field, profile) && !field.readonly;
/** The optional field to leave out: a Text first, then any other the service returns. */
function probeField(fields: Descriptor[], profile: SecretTypesSource): Descriptor | undefined {
  const optional = fields.filter((f) => returned(f, profile) && !f.required);
  return optional.find((f) => (f.type ?? "Text") === "Text") ?? optional[0];
}

export async function probeConfigureWrites(
  client: WireClient,
  accountId: string,
  connectorId: string,
): Promise<ConfigureProbe> {
  const params = { accountId, connectorId };
  const read = async () => {
    const answer = await client.call("getConfiguration", { params });
    return { status: effectiveStatus(answer.status, answer.body), ...configurationOf(answer.body) };
  };
  const before = await read();
  if (before.status >= 300 || before.id === undefined)
    return {
      line: `configureWrites: not told (Get Configuration answered ${before.status} without a configuration id)`,
    };
  const probe = probeField(before.fields, client.profile);
  if (!probe)
    return { line: "configureWrites: not told (the scratch connector has no optional field the service returns)" };
  const required = Object.fromEntries(
    before.fields.filter((f) => f.required && !f.readonly).map((f) => [f.id, probeValue(f, client.profile)]),
  );
  const configure = async (secretConfig: Record<string, unknown>) => {
    const answer = await client.call("configure", { params, body: { configurationId: before.id, secretConfig } });
    return effectiveStatus(answer.status, answer.body);
  };
  const first = await configure({ ...required, [probe.id]: probeValue(probe, client.profile) });
  if (first >= 300) return { line: `configureWrites: not told (the first Configure answered ${first})` };
  const second = await configure(required);
  if (second >= 300) return { line: `configureWrites: not told (a Configure without ${probe.id} answered ${second})` };
  const after = await read();
  const kept = after.fields.find((f) => f.id === probe.id)?.value;
  const writes = kept === undefined || kept === null || kept === "" ? "whole" : "given";
  return {
    configureWrites: writes,
    line:
      `configureWrites: ${writes} (a Configure without the ${probe.type ?? "Text"} field ${probe.id} ` +
      `${writes === "given" ? "kept" : "cleared"} it)`,
  };
}
