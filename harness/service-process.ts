// The local service in a child process of its own, for the benchmarks. In the bench's own
// process the service shared one event loop with the Automation API (which reads the
// engine's output and event log) and the memory watcher: its answers waited behind them, up
// to ~20 ms for a GET that takes 0.6 ms alone (bench/analysis.md), and that wait was counted
// as the provider's. A real service runs elsewhere; so does this one. Same interface as
// startLocalService; every call goes over the IPC channel to the child (service-child.ts).
import { fork, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import type { BuildAppOptions, LocalService } from "./local-service";

/** What the parent asks (service-child.ts answers each with the same id). */
export interface ServiceRequest {
  id: number;
  method: "stats" | "setFaults" | "createConnection" | "deleteConnection" | "holds" | "reset" | "stop";
  args: unknown[];
}

export type ServiceReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/** The child's first message: where it listens and who may call it. */
export interface ServiceReady {
  ready: true;
  baseUrl: string;
  adminKey: string;
  customers: LocalService["customers"];
}

type LocalOptions = Partial<BuildAppOptions> & { dbPath?: string };

/** How long the child may take to start (seed, listen) or to close. */
const STOP_TIMEOUT_MS = 10_000;
const START_TIMEOUT_MS = 30_000;

export async function startServiceProcess(options: LocalOptions = {}): Promise<LocalService> {
  const child: ChildProcess = fork(path.join(__dirname, "service-child.js"), [JSON.stringify(options)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  let exited: Error | undefined;
  const ready = new Promise<ServiceReady>((resolve, reject) => {
    child.on("message", (message: ServiceReady | ServiceReply) => {
      if ("ready" in message) return resolve(message);
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.ok) pending?.resolve(message.value);
      else pending?.reject(new Error(message.message));
    });
    // A channel closed under a send (the child died) is reported as an error event: the exit
    // handler below fails what was waiting, so the event must not crash the bench.
    child.on("error", (error) => {
      exited ??= error;
      reject(error);
    });
    child.once("exit", (code, signal) => {
      exited = new Error(`the local service process exited (${signal ?? code})`);
      reject(exited);
      for (const pending of waiting.values()) pending.reject(exited);
      waiting.clear();
    });
  });
  const startTimer = setTimeout(() => child.kill("SIGKILL"), START_TIMEOUT_MS);
  const { baseUrl, adminKey, customers } = await ready.finally(() => clearTimeout(startTimer));
  const call = <T>(method: ServiceRequest["method"], ...args: unknown[]): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(exited);
      const id = next++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, method, args } satisfies ServiceRequest, (error) => {
        if (!error) return;
        waiting.delete(id);
        reject(error);
      });
    });
  return {
    baseUrl,
    adminKey,
    customers,
    stats: () => call("stats"),
    setFaults: (faults) => call("setFaults", faults),
    createConnection: (accountId, source, destination) => call("createConnection", accountId, source, destination),
    deleteConnection: (connectionId) => call("deleteConnection", connectionId),
    holds: (accountId, connectorId, secretConfig) => call("holds", accountId, connectorId, secretConfig),
    reset: () => call("reset"),
    stop: async () => {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.send({ id: next++, method: "stop", args: [] } satisfies ServiceRequest, () => undefined);
      // A service that does not close in time is killed: the bench must be able to finish.
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await gone;
      clearTimeout(timer);
    },
  };
}
