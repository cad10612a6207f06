// Which of a resource's inputs reached the policy pack as secrets. The engine sends them marked
// (its analyzer request keeps secrets), but @pulumi/policy unwraps every secret before a rule sees
// the inputs and keeps no record of which were. So the pack wraps @pulumi/policy's one reader of a
// request's properties (its `deserialize` module, pinned by the peer range in package.json): it
// notes the top-level names whose value was a secret, keyed by the object the rules are given.
// Nothing of a value is kept. Without the reader (another @pulumi/policy), nothing is noted and
// `embedded-no-secret-id` says so rather than pass in silence.
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";

/** What @pulumi/policy's proxies answer for this key: the object they wrap. */
const PROXY_TARGET = "__getSpecialProxyTarget";

const noted = new WeakMap<object, ReadonlySet<string>>();
let hooked = false;

type Reader = (struct: { toJavaScript(): Record<string, unknown> }, proxySecrets: boolean) => unknown;

/** Wraps @pulumi/policy's reader once; returns whether it could. */
export function noteSecretInputs(): boolean {
  if (hooked) return true;
  let reader: { deserializeProperties?: Reader };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    reader = require("@pulumi/policy/deserialize") as { deserializeProperties?: Reader };
  } catch {
    return false;
  }
  const original = reader.deserializeProperties;
  if (typeof original !== "function") return false;
  reader.deserializeProperties = (struct, proxySecrets) => {
    const props = original(struct, proxySecrets);
    if (props !== null && typeof props === "object") noted.set(props, secretNames(struct.toJavaScript()));
    return props;
  };
  hooked = true;
  return true;
}

function secretNames(raw: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  for (const [name, value] of Object.entries(raw)) {
    if (
      value !== null &&
      typeof value === "object" &&
      (value as Record<string, unknown>)[specialSigKey] === specialSecretSig
    ) {
      names.add(name);
    }
  }
  return names;
}

/** The names of the inputs that arrived secret; undefined when the reader was not wrapped. */
export function secretInputsOf(props: object): ReadonlySet<string> | undefined {
  const target = (props as Record<string, unknown>)[PROXY_TARGET];
  const raw = target !== null && typeof target === "object" ? target : props;
  return noted.get(raw) ?? (hooked ? new Set() : undefined);
}
