// Messages for the user go through the engine (its Log call), which shows them under the
// resource they are about; a plugin's own stderr is only kept in the engine's verbose log.
import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";

export class EngineLog {
  private client?: EngineClient;

  /** @param address the engine's address, the plugin's first argument; none in tests. */
  constructor(address: string | undefined) {
    if (address) this.client = new EngineClient(address, grpc.credentials.createInsecure());
  }

  /** Resolves once the engine has the warning (a caller about to fail waits, or the engine may never show it). */
  warn(message: string, urn = ""): Promise<void> {
    const client = this.client;
    if (!client) {
      process.stderr.write(`warning: ${message}\n`);
      return Promise.resolve();
    }
    const request = new LogRequest().setSeverity(LogSeverity.WARNING).setMessage(message).setUrn(urn);
    return new Promise((resolve) => {
      client.log(request, (error) => {
        if (error) process.stderr.write(`warning: ${message}\n`);
        resolve();
      });
    });
  }

  close(): void {
    this.client?.close();
  }
}
