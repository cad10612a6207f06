// The child of service-process.ts: starts the local service from the options in argv[2] and
// answers the parent's calls over IPC; exits after `stop`.
import { startLocalService } from "./local-service";
import type { ServiceReady, ServiceReply, ServiceRequest } from "./service-process";

const METHODS: readonly string[] = [
  "stats",
  "setFaults",
  "createConnection",
  "deleteConnection",
  "holds",
  "reset",
] satisfies ServiceRequest["method"][];

async function main(): Promise<void> {
  const service = await startLocalService(
    JSON.parse(process.argv[2] ?? "{}") as Parameters<typeof startLocalService>[0],
  );
  const send = (message: ServiceReady | ServiceReply) => process.send?.(message);
  const stop = () => void service.stop().finally(() => process.exit(0));
  process.on("message", (request: ServiceRequest) => {
    if (request.method === "stop") return stop(); // the parent waits for the exit
    const method = METHODS.includes(request.method)
      ? (service[request.method] as (...args: unknown[]) => Promise<unknown>)
      : undefined;
    if (!method)
      return send({
        id: request.id,
        ok: false,
        message: `the local service has no method ${JSON.stringify(request.method)}`,
      });
    method(...request.args).then(
      (value) => send({ id: request.id, ok: true, value: value ?? null }),
      (error: unknown) =>
        send({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The parent gone (killed, crashed): nothing is left to serve.
  process.on("disconnect", stop);
  send({ ready: true, baseUrl: service.baseUrl, adminKey: service.adminKey, customers: service.customers });
}

main().catch((error: unknown) => {
  process.stderr.write(`local service: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
