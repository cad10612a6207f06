// Where the salt of a ConnectorConfiguration's digest key lives, and which
// key a state's digests are under.
//
// On the plugin the salt is a hidden secret INPUT (DIGEST_SALT_INPUT, declared in the
// definition): check draws it at create or import and carries it from the stored inputs on every
// later check, so a program cannot choose it. It never reaches an output, and so never the
// program's RegisterResource response, which the Node.js SDK prints under `pulumi up --debug`:
// nothing Pulumi prints, nor the state outside its encrypted secrets, keys the digests. The
// engine hands the stored inputs to check, Read (ReadRequest.inputs) and, through check, to diff
// and update (news); the fleet decrypts it from the stored inputs.
//
// The dynamic provider's Read receives only the outputs and the stack config, so its salt stays
// the secret OUTPUT `digestSalt`, which that SDK prints. What it cannot print is the stack
// config: with `embedded:digestKey` set (a stack secret), each write keys the digests under the
// salt AND that key (field-digests.ts), and records so in the non-secret output `digestRecipe`
// (DIGEST_KEY_RECIPE), never the key. A state under an older recipe keeps comparing under it until
// its next write, which re-keys it; a state under a digestKey that was changed or removed since
// cannot be compared by its digests: it keeps them, a read says so only if the service's
// lastUpdated moved, and diff compares the program with the stored inputs (password-changes.ts).
// A plugin state written before the input salt keeps its output salt (or none: the unsalted key)
// for comparison until its next write, which keys the digests under the input salt and drops it.
// The plugin never mixes digestKey in: nothing it prints keys its digests already, and mixing it
// would re-key every plugin state and make the fleet's fast path decrypt one more secret.
import { DIGEST_SALT_INPUT } from "../schema/connector-configuration";
import { digestKeyOf, newDigestSalt, type DigestKey } from "./field-digests";

type Props = Record<string, unknown>;

/** The input salt of checked or stored inputs; undefined on the dynamic host. */
export function inputSaltOf(inputs: Props | undefined): string | undefined {
  const salt = inputs?.[DIGEST_SALT_INPUT];
  return typeof salt === "string" && /^[0-9a-f]{32}$/.test(salt) ? salt : undefined;
}

/** The plugin's check: the checked inputs with the stored salt (olds'), or a new one at create, import or upgrade. */
export function withSaltInput(olds: Props, inputs: Props): Props {
  return { ...inputs, [DIGEST_SALT_INPUT]: inputSaltOf(olds) ?? newDigestSalt() };
}

/** The `digestRecipe` output of a state whose digests are keyed by embedded:digestKey too. */
export const DIGEST_KEY_RECIPE = "salt+digestKey";

/** A key, whether its salt goes into the outputs (`digestSalt`: the dynamic host's, or an older plugin state's), and its recipe's marker. */
export interface StateKey {
  key: DigestKey;
  outputSalt?: string;
  /** DIGEST_KEY_RECIPE when embedded:digestKey is mixed in (the `digestRecipe` output). */
  recipe?: typeof DIGEST_KEY_RECIPE;
}

/** The key under `salt` as an output salt: with `digestKey` mixed in when set. */
function outputSaltKey(clientSecret: string, salt: string, digestKey: string | undefined): StateKey {
  if (digestKey === undefined) return { key: digestKeyOf(clientSecret, salt), outputSalt: salt };
  return { key: digestKeyOf(clientSecret, salt, digestKey), outputSalt: salt, recipe: DIGEST_KEY_RECIPE };
}

/**
 * The key of a write: under the input salt on the plugin; else under the output salt (a new one
 * at create) and `digestKey` (embedded:digestKey) when set.
 */
export function writeKey(
  clientSecret: string,
  inputs: Props,
  outputSalt: string | undefined,
  digestKey?: string,
): StateKey {
  const input = inputSaltOf(inputs);
  if (input !== undefined) return { key: digestKeyOf(clientSecret, input) };
  return outputSaltKey(clientSecret, outputSalt ?? newDigestSalt(), digestKey);
}

/** What stateKey reads of the outputs. */
export interface KeyedOutputs {
  digestSalt?: string;
  digestKeyId?: string;
  digestRecipe?: string;
}

/**
 * The key the stored digests are under: of the outputs' salt (a dynamic state, with the current
 * digestKey when its recipe says so, or a plugin state written before the input salt), the input
 * salt, or none (a state written before salts), the one whose id is the state's `digestKeyId`.
 * None matching (another client secret, another digestKey): the first of them, which compares
 * with nothing (keyLost says whether the state's recipe had a digestKey).
 */
export function stateKey(
  clientSecret: string,
  outputs: KeyedOutputs | undefined,
  inputSalt: string | undefined,
  digestKey?: string,
): StateKey {
  if (!outputs) return writeKey(clientSecret, inputSalt ? { [DIGEST_SALT_INPUT]: inputSalt } : {}, undefined);
  const candidates: StateKey[] = [];
  if (outputs.digestSalt !== undefined) {
    if (outputs.digestRecipe === DIGEST_KEY_RECIPE && digestKey !== undefined)
      candidates.push(outputSaltKey(clientSecret, outputs.digestSalt, digestKey));
    candidates.push(outputSaltKey(clientSecret, outputs.digestSalt, undefined));
  }
  if (inputSalt !== undefined) candidates.push({ key: digestKeyOf(clientSecret, inputSalt) });
  if (outputs.digestSalt === undefined) candidates.push({ key: digestKeyOf(clientSecret) });
  return candidates.find((candidate) => candidate.key.id === outputs.digestKeyId) ?? candidates[0];
}

/**
 * Whether the state's digests were keyed by an embedded:digestKey that the current settings do
 * not reproduce (changed or removed since, or another client secret): they cannot be compared,
 * and no write of ours changed anything, so no drift is concluded from them.
 */
export function keyLost(outputs: KeyedOutputs | undefined, key: StateKey): boolean {
  return outputs?.digestRecipe === DIGEST_KEY_RECIPE && outputs.digestKeyId !== key.key.id;
}
