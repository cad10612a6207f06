// A resource's id `<accountId>/<connectorId>`, and the sub-account rule check() applies.
import { checkAccountId } from "../client";
import { isUnknown, shown } from "./checks";

/** `<accountId>/<connectorId>` → its parts (the connector id never contains "/"). */
export function splitId(id: string): { accountId: string; connectorId: string } {
  const at = id.lastIndexOf("/");
  return { accountId: id.slice(0, at), connectorId: id.slice(at + 1) };
}

/**
 * The check() rule for an explicit `accountId`: the client's own rule, so that whatever
 * check accepts is never refused later at create (unknown values pass during preview). The
 * client's message quotes the value; one that arrived `secret` is named by its kind instead.
 */
export function accountIdProblem(value: unknown, secret = false): string | undefined {
  if (isUnknown(value)) return undefined;
  try {
    checkAccountId(value);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return secret ? `${message.replace(/,? got [\s\S]*$/, "")}, got ${shown(value, true)}` : message;
  }
}
