// The plugin's lookup functions: the same arguments and results as the dynamic provider's
// (functions/), run by the plugin `embedded` with the settings of its provider (pass
// `{ provider }` in the options to use an explicit one).
import * as pulumi from "@pulumi/pulumi";
import {
  FIND_CONNECTOR,
  GET_CONNECTOR,
  GET_CONNECTOR_CONFIGURATION,
  LIST_ADDED_CONNECTORS,
  LIST_CONNECTORS,
  LIST_SUPPORTED_CONNECTORS,
} from "../../schema/functions";
import { token } from "../../schema/package-schema";
import type { FunctionDefinition } from "../../schema/property";
import type {
  GetConnectorConfigurationArgs,
  GetConnectorConfigurationResult,
  ListAddedConnectorsArgs,
  ListAddedConnectorsResult,
  ListSupportedConnectorsArgs,
  ListSupportedConnectorsResult,
} from "../../lookups/sub-account";
import type {
  FindConnectorArgs,
  FindConnectorResult,
  GetConnectorArgs,
  ListConnectorsArgs,
  ListConnectorsResult,
} from "../../lookups/catalogue";
import type { GetConnectorResult, InputArgs } from "../../lookups/types";
import { asRefusal } from "../../lookups/refusal";
import { outputForm, promiseResult } from "../../lookups/result-forms";
import { refusalWithoutArguments, SECRET_ARGUMENTS_KEY, secretArgumentsOf } from "../../lookups/secret-arguments";
import { withPluginOptions } from "./provider";

/**
 * A function of the plugin: the Promise form and the Output form (which waits for Input
 * arguments), each treating what the definition says is secret as the package's functions do
 * (lookups/result-forms.ts).
 */
function pluginFunction<A extends object, R>(definition: FunctionDefinition) {
  // The hidden argument goes with every call, an empty list when no argument is secret: without
  // it the plugin takes every argument as a possible secret and quotes none.
  const invoke = (args: A, opts?: pulumi.InvokeOptions): Promise<R> =>
    (
      pulumi.runtime.invoke(
        token(definition.name),
        { [SECRET_ARGUMENTS_KEY]: [], ...args },
        withPluginOptions(opts),
      ) as Promise<R>
    ).catch((error: unknown) => {
      throw asRefusal(error);
    });
  const call = async (args: A, opts?: pulumi.InvokeOptions): Promise<R> =>
    promiseResult(definition, await invoke(args, opts));
  // The arguments that arrived secret go to the plugin as secrets again: its refusal then
  // names them, never their values (lookups/secret-arguments.ts).
  const output = (args: InputArgs<A>, opts?: pulumi.InvokeOptions): pulumi.Output<R> =>
    outputForm(definition, (resolved: A) =>
      invoke(asSecrets(resolved), opts).catch((error: unknown) => {
        throw refusalWithoutArguments(error, resolved as Record<string, unknown>, secretArgumentsOf(resolved));
      }),
    )(args);
  return [call, output] as const;
}

/**
 * The resolved arguments, each that arrived secret wrapped as a secret again, and named in the
 * hidden argument the plugin reads (the engine hands a function's arguments on without their
 * secretness).
 */
function asSecrets<A extends object>(resolved: A): A {
  const secret = secretArgumentsOf(resolved);
  const args: Record<string, unknown> = Object.fromEntries(
    Object.entries(resolved).map(([name, value]) => [name, secret.has(name) ? pulumi.secret(value) : value]),
  );
  args[SECRET_ARGUMENTS_KEY] = [...secret];
  return args as A;
}

type Call<A, R> = (args: A, opts?: pulumi.InvokeOptions) => Promise<R>;
type OutputCall<A, R> = (args: InputArgs<A>, opts?: pulumi.InvokeOptions) => pulumi.Output<R>;

const getConnectorForms = pluginFunction<GetConnectorArgs, GetConnectorResult>(GET_CONNECTOR);
/** One connector of the catalogue (Get Connector, view G). */
export const getConnector: Call<GetConnectorArgs, GetConnectorResult> = getConnectorForms[0];
/** {@link getConnector} taking Inputs. */
export const getConnectorOutput: OutputCall<GetConnectorArgs, GetConnectorResult> = getConnectorForms[1];

const listConnectorsForms = pluginFunction<ListConnectorsArgs, ListConnectorsResult>(LIST_CONNECTORS);
/** The catalogue (List Connectors, view L), filtered by the service, all pages. */
export const listConnectors: Call<ListConnectorsArgs, ListConnectorsResult> = listConnectorsForms[0];
/** {@link listConnectors} taking Inputs. */
export const listConnectorsOutput: OutputCall<ListConnectorsArgs, ListConnectorsResult> = listConnectorsForms[1];

const findConnectorForms = pluginFunction<FindConnectorArgs, FindConnectorResult>(FIND_CONNECTOR);
/** The one catalogue connector with this exact name and side; an error naming near matches otherwise. */
export const findConnector: Call<FindConnectorArgs, FindConnectorResult> = findConnectorForms[0];
/** {@link findConnector} taking Inputs: `findConnectorOutput({ … }).connectorId` is an `Output<string>`. */
export const findConnectorOutput: OutputCall<FindConnectorArgs, FindConnectorResult> = findConnectorForms[1];

const listAddedForms = pluginFunction<ListAddedConnectorsArgs, ListAddedConnectorsResult>(LIST_ADDED_CONNECTORS);
/** The connectors added to a sub-account (List Added Connectors), all pages. */
export const listAddedConnectors: Call<ListAddedConnectorsArgs, ListAddedConnectorsResult> = listAddedForms[0];
/** {@link listAddedConnectors} taking Inputs. */
export const listAddedConnectorsOutput: OutputCall<ListAddedConnectorsArgs, ListAddedConnectorsResult> =
  listAddedForms[1];

const listSupportedForms = pluginFunction<ListSupportedConnectorsArgs, ListSupportedConnectorsResult>(
  LIST_SUPPORTED_CONNECTORS,
);
/** The connectors that can be paired with a given one (List Supported Connectors), all pages. */
export const listSupportedConnectors: Call<ListSupportedConnectorsArgs, ListSupportedConnectorsResult> =
  listSupportedForms[0];
/** {@link listSupportedConnectors} taking Inputs. */
export const listSupportedConnectorsOutput: OutputCall<ListSupportedConnectorsArgs, ListSupportedConnectorsResult> =
  listSupportedForms[1];

const getConfigurationForms = pluginFunction<GetConnectorConfigurationArgs, GetConnectorConfigurationResult>(
  GET_CONNECTOR_CONFIGURATION,
);
/**
 * Field descriptors and state of a connector's configuration, without the saved values: the
 * plugin never sends them (the Node SDK's `--debug` prints Invoke responses as they arrive).
 * The package's own `getConnectorConfigurationOutput` (not the plugin's) has them, as a secret.
 */
export const getConnectorConfiguration: Call<GetConnectorConfigurationArgs, GetConnectorConfigurationResult> =
  getConfigurationForms[0];
/**
 * {@link getConnectorConfiguration} taking Inputs: descriptors and state, no saved value.
 */
export const getConnectorConfigurationOutput: OutputCall<
  GetConnectorConfigurationArgs,
  GetConnectorConfigurationResult
> = getConfigurationForms[1];
