// The stack a policy pack runs for, and its config, as the engine tells the pack. An engine that
// starts the pack through the Node.js language host (every recent Pulumi CLI) hands neither in the
// environment (PULUMI_STACK, PULUMI_CONFIG): it sends them in the analyzer's ConfigureStack call,
// of which @pulumi/policy keeps only the tags. So the pack notes the rest as the call arrives, by
// wrapping the implementation @pulumi/policy gives its gRPC server (resolved as it resolves
// @grpc/grpc-js). The config is held in this process only; nothing of it is printed.
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { configSourceFromGetter, type ConfigSource } from "../settings/resolve";

interface StackConfigureRequest {
  getStack(): string;
  getProject(): string;
  getConfigMap(): { forEach(f: (value: string, key: string) => void): void };
}

type Handler = (call: { request: StackConfigureRequest }, callback: unknown) => void;

let told: { stack: string; project: string; config: Map<string, string> } | undefined;

/** Wraps the gRPC server's addService of @pulumi/policy's @grpc/grpc-js once, before the pack serves. */
export function noteStackConfig(): void {
  let grpc: { Server: { prototype: { addService(service: unknown, impl: Record<string, unknown>): void } } };
  try {
    const policyDir = path.dirname(require.resolve("@pulumi/policy"));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    grpc = require(require.resolve("@grpc/grpc-js", { paths: [policyDir] })) as typeof grpc;
  } catch {
    return;
  }
  const proto = grpc.Server.prototype;
  const addService = proto.addService;
  proto.addService = function (this: unknown, service: unknown, impl: Record<string, unknown>) {
    const configureStack = impl.configureStack as Handler | undefined;
    if (typeof configureStack === "function") {
      impl = {
        ...impl,
        configureStack: (call: { request: StackConfigureRequest }, callback: unknown) => {
          try {
            const config = new Map<string, string>();
            call.request.getConfigMap().forEach((value, key) => config.set(key, value));
            told = { stack: call.request.getStack(), project: call.request.getProject(), config };
          } catch {
            // an engine without these fields: the environment's, below
          }
          configureStack(call, callback);
        },
      };
    }
    addService.call(this, service, impl);
  };
}

/** The stack: the engine's ConfigureStack, else PULUMI_STACK (older engines' launcher). */
export function stackName(): string {
  return told?.stack || pulumi.getStack();
}

/** The stack's project: the engine's ConfigureStack, else PULUMI_PROJECT. */
export function projectName(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return told?.project || env.PULUMI_PROJECT || undefined;
}

/** The stack config `embedded:*`: the engine's ConfigureStack, else PULUMI_CONFIG (through @pulumi/pulumi). */
export function stackConfigSource(): ConfigSource {
  if (told) {
    const config = told.config;
    return configSourceFromGetter({ get: (key) => config.get(key) });
  }
  const namespace = new pulumi.Config("embedded");
  return configSourceFromGetter({ get: (key) => namespace.get(key.slice(key.indexOf(":") + 1)) });
}
