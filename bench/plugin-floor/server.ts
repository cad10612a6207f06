// The plugin `embeddedfloor`: a Pulumi resource provider (the gRPC ResourceProvider service,
// on the same grpc-js and protocol stubs as the plugin `embedded`) whose operations do
// nothing. Its resources have the shapes of the dynamic floor (bench/programs/fleet/floor.ts,
// the same output values) and leave with the secrets the plugin `embedded` marks (its
// property values go through the plugin's own wire.ts). What the bench measures with it is
// what the engine and a native plugin process cost on their own.
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { fromStruct, toStruct, type Props } from "../../provider/hosts/plugin/wire";
import { CONFIGURATION_SECRET_OUTPUTS, configurationOutputs, connectorOutputs } from "../programs/fleet/floor-outputs";

export const FLOOR_PACKAGE = "embeddedfloor";

interface FloorType {
  outputs(inputs: Props): Props;
  /** Always secret, as in the plugin `embedded`: the definition's secret inputs and outputs. */
  secrets: string[];
}

const TYPES: ReadonlyMap<string, FloorType> = new Map([
  [
    `${FLOOR_PACKAGE}:index:AddedConnector`,
    { outputs: (inputs: Props) => connectorOutputs(String(inputs.connectorId)), secrets: [] },
  ],
  [
    `${FLOOR_PACKAGE}:index:ConnectorConfiguration`,
    { outputs: configurationOutputs, secrets: ["secretConfig", ...CONFIGURATION_SECRET_OUTPUTS] },
  ],
]);

function typeOf(urn: string, type: string): FloorType {
  const qualified = type || (urn.split("::")[2] ?? "");
  const name = qualified.slice(qualified.lastIndexOf("$") + 1);
  const found = TYPES.get(name);
  if (!found) throw new Error(`the ${FLOOR_PACKAGE} provider has no resource type ${JSON.stringify(name)}`);
  return found;
}

function unary<Req, Res>(handle: (request: Req) => Res): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    try {
      callback(null, handle(call.request));
    } catch (error) {
      callback({ code: grpc.status.UNKNOWN, details: error instanceof Error ? error.message : String(error) }, null);
    }
  };
}

/** Inputs echoed as outputs (as the plugin `embedded` does), then the floor's output values. */
function outputsOf(type: FloorType, inputs: Props): Props {
  return { ...inputs, ...type.outputs(inputs) };
}

/** The service; the methods it leaves out answer UNIMPLEMENTED (grpc-js's default handler). */
export function floorService(version: string): grpc.UntypedServiceImplementation {
  return {
    getPluginInfo: unary<Empty, PluginInfo>(() => new PluginInfo().setVersion(version)),
    cancel: unary<Empty, Empty>(() => new Empty()),
    checkConfig: unary<proto.CheckRequest, proto.CheckResponse>((req) => {
      const news = fromStruct(req.getNews());
      return new proto.CheckResponse().setInputs(toStruct(news.props, news.secrets));
    }),
    // DIFF_UNKNOWN (the default): the engine compares the inputs itself.
    diffConfig: unary<proto.DiffRequest, proto.DiffResponse>(() => new proto.DiffResponse()),
    configure: unary<proto.ConfigureRequest, proto.ConfigureResponse>(() =>
      new proto.ConfigureResponse()
        .setAcceptsecrets(true)
        .setSupportspreview(false)
        .setAcceptresources(false)
        .setAcceptoutputs(false),
    ),
    check: unary<proto.CheckRequest, proto.CheckResponse>((req) => {
      const type = typeOf(req.getUrn(), req.getType());
      const news = fromStruct(req.getNews());
      return new proto.CheckResponse().setInputs(toStruct(news.props, [...type.secrets, ...news.secrets]));
    }),
    // As the dynamic floor (no diff): the engine compares the inputs itself.
    diff: unary<proto.DiffRequest, proto.DiffResponse>(() => new proto.DiffResponse()),
    create: unary<proto.CreateRequest, proto.CreateResponse>((req) => {
      const type = typeOf(req.getUrn(), req.getType());
      const inputs = fromStruct(req.getProperties());
      const id = `floor/${String(inputs.props.connectorId)}`;
      return new proto.CreateResponse()
        .setId(id)
        .setProperties(toStruct(outputsOf(type, inputs.props), [...type.secrets, ...inputs.secrets]));
    }),
    read: unary<proto.ReadRequest, proto.ReadResponse>((req) => {
      const type = typeOf(req.getUrn(), req.getType());
      const state = fromStruct(req.getProperties());
      const inputs = fromStruct(req.getInputs());
      const secrets = [...type.secrets, ...state.secrets, ...inputs.secrets];
      return new proto.ReadResponse()
        .setId(req.getId())
        .setProperties(toStruct(state.props, secrets))
        .setInputs(toStruct(inputs.props, secrets));
    }),
    update: unary<proto.UpdateRequest, proto.UpdateResponse>((req) => {
      const type = typeOf(req.getUrn(), req.getType());
      const news = fromStruct(req.getNews());
      return new proto.UpdateResponse().setProperties(
        toStruct(outputsOf(type, news.props), [...type.secrets, ...news.secrets]),
      );
    }),
    delete: unary<proto.DeleteRequest, Empty>(() => new Empty()),
  };
}

/** Serves on a free loopback port, with the same server options as the plugin `embedded`. */
export async function serveFloor(version: string): Promise<{ port: number; server: grpc.Server }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(ResourceProviderService, floorService(version));
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  return { port, server };
}
