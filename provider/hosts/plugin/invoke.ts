// The plugin's functions (Invoke): the lookups of lookups/lookups.ts, run with the
// provider's own settings, their arguments checked against the one definition.
import * as lookups from "../../lookups/lookups";
import {
  FIND_CONNECTOR,
  FUNCTIONS,
  GET_CONNECTOR,
  GET_CONNECTOR_CONFIGURATION,
  LIST_ADDED_CONNECTORS,
  LIST_CONNECTORS,
  LIST_SUPPORTED_CONNECTORS,
} from "../../schema/functions";
import { token } from "../../schema/package-schema";
import { hasType, typeName, type FunctionDefinition } from "../../schema/property";
import { functionSecrets, withoutSecretValues } from "../../schema/secrets";
import { refusalWithoutArguments, splitSecretArguments } from "../../lookups/secret-arguments";
import { writtenInPlain } from "../../project/written-in-plain";
import { accountIdFor, currentClient } from "../../runtime/runtime";
import type { Outgoing } from "./outgoing";
import type { Props } from "./wire";

type Lookup = (ctx: lookups.LookupContext, args: never) => Promise<object>;

const LOOKUPS: ReadonlyMap<string, { definition: FunctionDefinition; run: Lookup } & Outgoing> = new Map(
  (
    [
      [GET_CONNECTOR, lookups.getConnector],
      [LIST_CONNECTORS, lookups.listConnectors],
      [FIND_CONNECTOR, lookups.findConnector],
      [LIST_ADDED_CONNECTORS, lookups.listAddedConnectors],
      [LIST_SUPPORTED_CONNECTORS, lookups.listSupportedConnectors],
      [GET_CONNECTOR_CONFIGURATION, lookups.getConnectorConfiguration],
    ] as const
  ).map(([definition, run]) => [
    token(definition.name),
    { definition, run: run as Lookup, secrets: functionSecrets(definition), inputOnly: [] },
  ]),
);

// Every function of the definitions has a lookup.
if (LOOKUPS.size !== FUNCTIONS.length) throw new Error("internal: a function of the definitions has no lookup");

/**
 * The arguments to treat as secret when the caller named none. The plugin's TypeScript SDK names
 * its secret arguments in a hidden one (lookups/secret-arguments.ts); the Python, Go and YAML SDKs
 * unwrap a secret argument before the Invoke (Python's `invoke_output`, the Go SDK's `ApplyT`
 * around `InvokeOutput`, pulumi-yaml's `lift`), so it arrives plain and unmarked. A string written
 * in plain in the project (a literal of the program, a plain stack config value) is shown, with
 * its near matches; any other argument is named, never quoted.
 */
function unnamedSecrets(args: Props): string[] {
  return Object.keys(args).filter((name) => {
    const value = args[name];
    return typeof value === "string" ? !writtenInPlain(value) : value !== undefined && value !== null;
  });
}

export interface InvokeResult {
  result?: object;
  failures: { property: string; reason: string }[];
  /** How the result leaves (its definition's secret outputs). */
  kind?: Outgoing;
}

/** One failure per bad argument: missing, of the wrong type, or not an argument of the function. */
export function argumentFailures(definition: FunctionDefinition, args: Props): InvokeResult["failures"] {
  const failures: InvokeResult["failures"] = [];
  for (const [name, property] of Object.entries(definition.inputs)) {
    const value = args[name];
    if (value === undefined || value === null) {
      if (property.required) failures.push({ property: name, reason: `${definition.name}: ${name} is required` });
    } else if (!hasType(value, property.type)) {
      failures.push({ property: name, reason: `${definition.name}: ${name} must be ${typeName(property.type)}` });
    }
  }
  for (const name of Object.keys(args)) {
    if (!Object.hasOwn(definition.inputs, name)) {
      failures.push({
        property: name,
        reason: `${definition.name} has no argument ${JSON.stringify(name)}; its arguments are: ${Object.keys(definition.inputs).join(", ")}`,
      });
    }
  }
  return failures;
}

/**
 * `secretArguments`: the arguments that arrived secret; a refusal names them, never their
 * values (lookups/secret-arguments.ts).
 */
export async function invoke(
  functionToken: string,
  given: Props,
  arrivedSecret: ReadonlySet<string> = new Set(),
): Promise<InvokeResult> {
  const { args, named } = splitSecretArguments(given);
  const secretArguments = new Set([...arrivedSecret, ...(named ?? unnamedSecrets(args))]);
  const lookup = LOOKUPS.get(functionToken);
  if (!lookup)
    throw new Error(
      `the embedded provider has no function ${JSON.stringify(functionToken)}; it has ${[...LOOKUPS.keys()].join(", ")}`,
    );
  const failures = argumentFailures(lookup.definition, args);
  if (failures.length > 0) return { failures };
  const { client } = currentClient();
  // What the definition marks secret (a field's saved value) never crosses the engine: the Node
  // SDK's `--debug` line prints every Invoke response as it arrived, secret wrappers and all,
  // and the Python and Go SDKs' plain forms unwrap or refuse secrets.
  let found: object;
  try {
    found = await lookup.run({ client, accountId: accountIdFor, secretArguments }, args as never);
  } catch (error) {
    throw refusalWithoutArguments(error, args, secretArguments);
  }
  const result = withoutSecretValues(lookup.definition.outputs, found);
  return { result, failures: [], kind: lookup };
}
