// The plugin `embedded`: a Pulumi resource provider (the gRPC ResourceProvider service) on
// top of the dynamic resources' implementations. Written against the protocol's generated
// stubs rather than @pulumi/pulumi's provider server, which ignores Configure (so an explicit
// provider's settings would be lost), has no CheckConfig, and fails every import (docs/DESIGN.md).
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Status } from "@pulumi/pulumi/proto/status_pb";
import { containsUnknown } from "../../schema/checks";
import { packageSchema } from "../../schema/package-schema";
import { isProgrammingError } from "../../client/service-failures";
import { useConfig, useHost, useOwner } from "../../runtime/runtime";
import { EngineLog } from "./engine-log";
import { invoke } from "./invoke";
import { changedSettings, checkConfig, configSourceOf, configureVerdict, isDefaultProvider } from "./provider-config";
import { stackFileSettings } from "../../project/stack-file-settings";
import { SettingsError } from "../../settings/resolve";
import { outgoing, previewOutputs, PROVIDER_SETTINGS } from "./outgoing";
import { resourceTypeOf, withInputs } from "./resources";
import { fromStruct, ownerOfUrn, type Props } from "./wire";

type Failure = { property: string; reason: string };

function checkFailures(failures: Failure[] | undefined): proto.CheckFailure[] {
  return (failures ?? []).map((f) => new proto.CheckFailure().setProperty(f.property).setReason(f.reason));
}

/** A failed operation as the engine shows it: the message once, a stack only for a bug. */
function serviceError(error: unknown): Partial<grpc.StatusObject> {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && isProgrammingError(error)) process.stderr.write(`${error.stack ?? message}\n`);
  const partial = error as { id?: unknown; wireProperties?: unknown; reasons?: unknown } | null;
  if (partial && typeof partial.id === "string" && partial.wireProperties instanceof Struct) {
    // Created but not finished (added-connector/steps.ts, `unfinished`): the engine
    // records the resource with its id, and the next `up` calls Update to finish it.
    const detail = new proto.ErrorResourceInitFailed()
      .setId(partial.id)
      .setProperties(partial.wireProperties)
      .setReasonsList(Array.isArray(partial.reasons) ? partial.reasons.map(String) : [message]);
    const any = new Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new Status().setCode(grpc.status.UNKNOWN).setMessage(message).setDetailsList([any]);
    const metadata = new grpc.Metadata();
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    return { code: grpc.status.UNKNOWN, details: message, metadata };
  }
  return { code: grpc.status.UNKNOWN, details: message };
}

function propertyDiffKind(kind: "add" | "delete" | "update", replaced: boolean): proto.PropertyDiff.Kind {
  const Kind = proto.PropertyDiff.Kind;
  if (kind === "add") return replaced ? Kind.ADD_REPLACE : Kind.ADD;
  if (kind === "delete") return replaced ? Kind.DELETE_REPLACE : Kind.DELETE;
  return replaced ? Kind.UPDATE_REPLACE : Kind.UPDATE;
}

function unary<Req, Res>(handle: (request: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    handle(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => callback(serviceError(error), null),
    );
  };
}

function unimplemented(name: string): grpc.handleUnaryCall<unknown, unknown> {
  return (_call, callback) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by the embedded provider` }, null);
}

/** The service implementation; `version` is the package's, `log` reaches the engine. */
export function providerService(version: string, log: EngineLog): grpc.UntypedServiceImplementation {
  useHost("plugin", (message, urn) => log.warn(message, urn));
  let schema: string | undefined;
  // A provider whose settings are not all known yet (preview, from another resource's output):
  // nothing can be checked against the service, so Check passes the inputs on, as the engine
  // itself does for a provider it could not configure.
  let settingsUnknown = false;
  // The resources a refresh has just read, whose Diff has not come yet (see diff).
  const readByRefresh = new Set<string>();
  return {
    getPluginInfo: unary<Empty, PluginInfo>(async () => new PluginInfo().setVersion(version)),
    getSchema: unary<proto.GetSchemaRequest, proto.GetSchemaResponse>(async () => {
      schema ??= JSON.stringify(packageSchema(version));
      return new proto.GetSchemaResponse().setSchema(schema);
    }),
    cancel: unary<Empty, Empty>(async () => new Empty()),
    attach: unary<unknown, Empty>(async () => new Empty()),
    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    construct: unimplemented("Construct"),
    call: unimplemented("Call"),
    getMapping: unary<proto.GetMappingRequest, proto.GetMappingResponse>(async () => new proto.GetMappingResponse()),
    getMappings: unary<proto.GetMappingsRequest, proto.GetMappingsResponse>(
      async () => new proto.GetMappingsResponse(),
    ),
    list: (call: grpc.ServerWritableStream<unknown, unknown>) =>
      call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented" }),

    checkConfig: unary<proto.CheckRequest, proto.CheckResponse>(async (req) => {
      const news = fromStruct(req.getNews());
      const { inputs, failures } = checkConfig(news.props);
      return new proto.CheckResponse()
        .setInputs(outgoing(PROVIDER_SETTINGS, inputs, [news], "inputs"))
        .setFailuresList(checkFailures(failures));
    }),
    diffConfig: unary<proto.DiffRequest, proto.DiffResponse>(async (req) => {
      const changed = changedSettings(fromStruct(req.getOlds()).props, fromStruct(req.getNews()).props);
      // No setting replaces the provider: that would replace every resource it manages.
      return new proto.DiffResponse()
        .setChanges(
          changed.length > 0 ? proto.DiffResponse.DiffChanges.DIFF_SOME : proto.DiffResponse.DiffChanges.DIFF_NONE,
        )
        .setDiffsList(changed);
    }),
    configure: unary<proto.ConfigureRequest, proto.ConfigureResponse>(async (req) => {
      let settings: Props;
      if (req.hasArgs()) {
        // The one call whose arguments keep their secretness (CheckConfig's never do).
        const args = fromStruct(req.getArgs());
        settings = args.props;
        const urn = req.getUrn() ?? "";
        const verdict = configureVerdict(
          settings,
          args.secrets,
          urn,
          isDefaultProvider(urn) ? stackFileSettings(ownerOfUrn(urn)) : [],
        );
        // Delivered before a refusal fails the run, or the engine would not show them; not under
        // a default provider, whose messages the engine's display leaves out with it.
        const under = isDefaultProvider(urn) ? "" : urn;
        await Promise.all(verdict.warnings.map((warning) => log.warn(warning, under)));
        if (verdict.refusal) throw new SettingsError(verdict.refusal);
      } else {
        // Older engines: `embedded:config:<name>` variables.
        settings = {};
        req.getVariablesMap().forEach((value, key) => {
          settings[key.slice(key.lastIndexOf(":") + 1)] = value;
        });
      }
      settingsUnknown = Object.values(settings).some(containsUnknown);
      useConfig(configSourceOf(settings));
      return (
        new proto.ConfigureResponse()
          .setAcceptsecrets(true)
          // Preview Create and Update answer without the service (outgoing.ts, previewOutputs).
          .setSupportspreview(true)
          .setAcceptresources(false)
          .setAcceptoutputs(false)
      );
    }),

    invoke: unary<proto.InvokeRequest, proto.InvokeResponse>(async (req) => {
      const args = fromStruct(req.getArgs());
      const { result, failures, kind } = await invoke(req.getTok(), args.props, args.secrets);
      const response = new proto.InvokeResponse().setFailuresList(checkFailures(failures));
      return result && kind ? response.setReturn(outgoing(kind, result as Props, [args], "outputs")) : response;
    }),

    check: unary<proto.CheckRequest, proto.CheckResponse>(async (req) => {
      const type = resourceTypeOf(req.getUrn(), req.getType());
      readByRefresh.delete(req.getUrn()); // an update's Diff follows its Check
      const olds = fromStruct(req.getOlds());
      const news = fromStruct(req.getNews());
      const result = settingsUnknown
        ? { inputs: news.props, failures: [] }
        : await type.implementation.check(olds.props, news.props, news.secrets);
      // The hidden inputs (a digest salt) only the provider sets: carried from the stored inputs.
      const inputs = type.withHiddenInputs(olds.props, result.inputs ?? news.props);
      return new proto.CheckResponse()
        .setInputs(outgoing(type, inputs, [news], "inputs"))
        .setFailuresList(checkFailures(result.failures));
    }),
    diff: unary<proto.DiffRequest, proto.DiffResponse>(async (req) => {
      const type = resourceTypeOf(req.getUrn(), req.getType());
      // A no-change `up` sends Diff alone: it is where the engine shows it holds the resource.
      useOwner(ownerOfUrn(req.getUrn()));
      const result = await type.implementation.diff(
        req.getId(),
        fromStruct(req.getOlds()).props,
        fromStruct(req.getNews()).props,
      );
      const response = new proto.DiffResponse()
        .setChanges(
          result.changes ? proto.DiffResponse.DiffChanges.DIFF_SOME : proto.DiffResponse.DiffChanges.DIFF_NONE,
        )
        .setReplacesList(result.replaces ?? [])
        .setDeletebeforereplace(result.deleteBeforeReplace ?? false);
      // A refresh calls Diff right after its Read (no Check between), with the outputs just read
      // as olds, and shows a detailed diff's paths against those outputs, where the input-only
      // secretConfig is absent: `secretConfig.region` would read `- secretConfig: [secret]`.
      // Without a detailed diff the engine shows the outputs that changed instead:
      // `fieldDigests.region` and `drift` (docs/DESIGN.md, "Drift by field, without values").
      if (readByRefresh.delete(req.getUrn()) || !result.detailedDiff) return response;
      // By path (`secretConfig.region`): the engine shows which fields the update writes.
      const detailed = response.setHasdetaileddiff(true).getDetaileddiffMap();
      for (const [path, { kind, inputDiff }] of Object.entries(result.detailedDiff)) {
        const replaced = (result.replaces ?? []).includes(path.split(".")[0]);
        detailed.set(path, new proto.PropertyDiff().setKind(propertyDiffKind(kind, replaced)).setInputdiff(inputDiff));
      }
      return response.setDiffsList([...new Set(Object.keys(result.detailedDiff).map((path) => path.split(".")[0]))]);
    }),
    create: unary<proto.CreateRequest, proto.CreateResponse>(async (req) => {
      const type = resourceTypeOf(req.getUrn(), req.getType());
      useOwner(ownerOfUrn(req.getUrn()));
      const inputs = fromStruct(req.getProperties());
      if (req.getPreview()) return new proto.CreateResponse().setId("").setProperties(previewOutputs(type, inputs));
      try {
        const { id, outs } = await type.implementation.create(inputs.props);
        return new proto.CreateResponse()
          .setId(id)
          .setProperties(outgoing(type, withInputs(inputs.props, outs), [inputs], "outputs"));
      } catch (error) {
        // A partly created resource's properties go into the state too: as secret as its inputs.
        const partial = error as { id?: unknown; properties?: unknown } | null;
        if (
          !(error instanceof Error) ||
          typeof partial?.id !== "string" ||
          !partial.properties ||
          typeof partial.properties !== "object"
        )
          throw error;
        throw Object.assign(error, {
          wireProperties: outgoing(type, partial.properties as Props, [inputs], "outputs"),
        });
      }
    }),
    read: unary<proto.ReadRequest, proto.ReadResponse>(async (req) => {
      const type = resourceTypeOf(req.getUrn(), req.getType());
      useOwner(ownerOfUrn(req.getUrn()));
      const state = fromStruct(req.getProperties());
      const oldInputs = fromStruct(req.getInputs());
      const arrived = [state, oldInputs];
      if (Object.keys(state.props).length === 0) {
        // `pulumi import`, the import option, or `.get()`: nothing is known but the id.
        const found = await type.importExisting(req.getId());
        if (found.notice) void log.warn(found.notice, req.getUrn());
        return new proto.ReadResponse()
          .setId(found.id)
          .setProperties(outgoing(type, found.props, arrived, "outputs"))
          .setInputs(outgoing(type, found.inputs, arrived, "inputs"));
      }
      const result = await type.implementation.read(req.getId(), state.props, oldInputs.props);
      const response = new proto.ReadResponse().setId(result.id ?? "");
      if (!result.id) return response; // gone: refresh drops it
      readByRefresh.add(req.getUrn());
      response.setProperties(outgoing(type, result.props ?? {}, arrived, "outputs"));
      return response.setInputs(outgoing(type, result.inputs ?? oldInputs.props, arrived, "inputs"));
    }),
    update: unary<proto.UpdateRequest, proto.UpdateResponse>(async (req) => {
      const type = resourceTypeOf(req.getUrn(), req.getType());
      useOwner(ownerOfUrn(req.getUrn()));
      const olds = fromStruct(req.getOlds());
      const news = fromStruct(req.getNews());
      if (req.getPreview()) return new proto.UpdateResponse().setProperties(previewOutputs(type, news));
      const { outs } = await type.implementation.update(req.getId(), olds.props, news.props);
      return new proto.UpdateResponse().setProperties(outgoing(type, withInputs(news.props, outs), [news], "outputs"));
    }),
    delete: unary<proto.DeleteRequest, Empty>(async (req) => {
      const type = resourceTypeOf(req.getUrn(), req.getType());
      useOwner(ownerOfUrn(req.getUrn()));
      await type.implementation.remove(req.getId(), fromStruct(req.getProperties()).props, req.getUrn());
      return new Empty();
    }),
  };
}

/** Serves on a free loopback port; resolves with the port (the engine reads it from stdout). */
export async function serve(
  version: string,
  engineAddress: string | undefined,
): Promise<{ port: number; server: grpc.Server; log: EngineLog }> {
  const log = new EngineLog(engineAddress);
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(ResourceProviderService, providerService(version, log));
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  return { port, server, log };
}
