// Where the salt of a ConnectorConfiguration's digest key lives (issue 38, item 2), and which
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
// the secret OUTPUT `digestSalt`, which that SDK prints (docs/secrets.md says what that leaves).
// A plugin state written before this keeps its output salt (or none: the unsalted key) for
// comparison until its next write, which keys the digests under the input salt and drops it.
import { DIGEST_SALT_INPUT } from "../definitions/connector-configuration";
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

/** A key, and whether its salt goes into the outputs (`digestSalt`: the dynamic host's, or an older plugin state's). */
export interface StateKey {
  key: DigestKey;
  outputSalt?: string;
}

/** The key of a write: under the input salt on the plugin; else under the output salt (a new one at create). */
export function writeKey(clientSecret: string, inputs: Props, outputSalt: string | undefined): StateKey {
  const input = inputSaltOf(inputs);
  if (input !== undefined) return { key: digestKeyOf(clientSecret, input) };
  const salt = outputSalt ?? newDigestSalt();
  return { key: digestKeyOf(clientSecret, salt), outputSalt: salt };
}

/**
 * The key the stored digests are under: of the outputs' salt (a dynamic state, or a plugin state
 * written before the input salt), the input salt, or none (a state written before salts), the
 * one whose id is the state's `digestKeyId`. None matching (another client secret): the first of
 * them, which compares with nothing, so the next update re-writes the configuration once.
 */
export function stateKey(
  clientSecret: string,
  outputs: { digestSalt?: string; digestKeyId?: string } | undefined,
  inputSalt: string | undefined,
): StateKey {
  if (!outputs) return writeKey(clientSecret, inputSalt ? { [DIGEST_SALT_INPUT]: inputSalt } : {}, undefined);
  const candidates: StateKey[] = [];
  if (outputs.digestSalt !== undefined)
    candidates.push({ key: digestKeyOf(clientSecret, outputs.digestSalt), outputSalt: outputs.digestSalt });
  if (inputSalt !== undefined) candidates.push({ key: digestKeyOf(clientSecret, inputSalt) });
  if (outputs.digestSalt === undefined) candidates.push({ key: digestKeyOf(clientSecret) });
  return candidates.find((candidate) => candidate.key.id === outputs.digestKeyId) ?? candidates[0];
}
