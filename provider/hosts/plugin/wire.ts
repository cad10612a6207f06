// Property values on the wire of the provider protocol: google.protobuf.Struct, in which a
// secret is an object carrying Pulumi's secret signature and an unknown value (preview) is
// a sentinel string. The provider's own code sees plain values; which properties were
// secret is kept aside, so that they leave as secrets again.
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

/** The key and value that mark an object as a secret (pulumi sdk: rpc.specialSigKey, specialSecretSig). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Props = Record<string, unknown>;

/** Properties with their secrets unwrapped, and the top-level names that held a secret. */
export interface Unwrapped {
  props: Props;
  secrets: Set<string>;
}

function isSecret(value: unknown): value is { value?: unknown } {
  return value !== null && typeof value === "object" && (value as Props)[SIG_KEY] === SECRET_SIG;
}

/** The value without secret markers; `found` is set when there was one anywhere inside. */
function unwrap(value: unknown, found: { secret: boolean }): unknown {
  if (isSecret(value)) {
    found.secret = true;
    return unwrap(value.value, found);
  }
  if (Array.isArray(value)) return value.map((item) => unwrap(item, found));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, unwrap(item, found)]));
  }
  return value;
}

export function fromStruct(struct: Struct | undefined): Unwrapped {
  const raw = (struct?.toJavaScript() ?? {}) as Props;
  const props: Props = {};
  const secrets = new Set<string>();
  for (const [key, value] of Object.entries(raw)) {
    const found = { secret: false };
    props[key] = unwrap(value, found);
    if (found.secret) secrets.add(key);
  }
  return { props, secrets };
}

/** Struct.fromJavaScript refuses undefined: drop it from objects, turn it into null in lists. */
function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : defined(item)));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => [key, defined(item)]),
    );
  }
  return value;
}

/** The properties as a Struct, the named ones (when present) wrapped as secrets. */
export function toStruct(props: Props, secrets: Iterable<string> = []): Struct {
  const out = defined(props) as Record<string, Parameters<typeof Struct.fromJavaScript>[0][string]>;
  for (const key of new Set(secrets)) {
    const value = out[key];
    if (value !== undefined && value !== null && !isSecret(value)) out[key] = { [SIG_KEY]: SECRET_SIG, value };
  }
  return Struct.fromJavaScript(out);
}

/** `project/stack` of a resource URN (`urn:pulumi:<stack>::<project>::<type>::<name>`); "" when it is not one. */
export function ownerOfUrn(urn: string): string {
  const match = /^urn:pulumi:([^:]+)::([^:]+)::/.exec(urn);
  return match ? `${match[2]}/${match[1]}` : "";
}
