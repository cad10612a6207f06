// The chaos runs' local service: a file database (so it survives a restart), a fixed port
// (so a restarted service is the same URL), a canary client secret, and every log line kept
// for the secrets scan. Admin calls go through app.inject: faults never hit them.
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../service/app";
import type { FaultSettings } from "../../service/faults";
import { seedCustomers } from "../../service/seed/customers";
import type { Stats } from "../../service/stats";

export interface ChaosServiceOptions {
  tokenTtlSeconds: number;
  clientSecret: string;
}

export class ChaosService {
  readonly logs: string[] = [];
  readonly adminKey = randomBytes(16).toString("hex");
  readonly clientId = "chaos-client";
  restarts = 0;
  private app?: FastifyInstance;
  private port = 0;

  private constructor(
    private readonly dir: string,
    private readonly options: ChaosServiceOptions,
  ) {}

  static async start(options: ChaosServiceOptions): Promise<ChaosService> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "embedded-chaos-db-"));
    const service = new ChaosService(dir, options);
    await service.listen();
    return service;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get clientSecret(): string {
    return this.options.clientSecret;
  }

  get accountId(): string {
    return seedCustomers({ clientId: this.clientId, clientSecret: this.options.clientSecret })[0].subAccountIds[0];
  }

  private async listen(): Promise<void> {
    const logs = this.logs;
    const stream = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        logs.push(chunk.toString());
        callback();
      },
    });
    const app = buildApp({
      db: path.join(this.dir, "service.db"),
      tokenTtlSeconds: this.options.tokenTtlSeconds,
      rateLimitPerSecond: 0,
      adminKey: this.adminKey,
      firstCustomer: { clientId: this.clientId, clientSecret: this.options.clientSecret },
      logger: { level: "info", stream },
    });
    await app.listen({ port: this.port, host: "127.0.0.1" });
    const address = app.server.address();
    if (address !== null && typeof address === "object") this.port = address.port;
    this.app = app;
  }

  /** Stops and starts the service on the same port and database (faults and stats start afresh). */
  async restart(faults?: FaultSettings): Promise<void> {
    await this.app?.close();
    this.restarts++;
    await this.listen();
    if (faults) await this.setFaults(faults);
  }

  private async admin<T>(method: "GET" | "PUT", url: string, payload?: object): Promise<T> {
    if (!this.app) throw new Error("the chaos service is not running");
    const res = await this.app.inject({
      method,
      url,
      headers: { "x-admin-key": this.adminKey },
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return (res.json() as { response: T }).response;
  }

  async setFaults(faults: FaultSettings): Promise<void> {
    await this.admin("PUT", "/_admin/faults", faults);
  }

  stats(): Promise<Stats> {
    return this.admin<Stats>("GET", "/_admin/stats");
  }

  async stop(): Promise<void> {
    await this.app?.close();
    this.app = undefined;
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}

/** Requests that reached a route whatever their outcome (status, reset, dropped). */
export function callsTo(stats: Stats, route: string): number {
  return Object.values(stats.byRoute[route] ?? {}).reduce((sum, n) => sum + n, 0);
}
