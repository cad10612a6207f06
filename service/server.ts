// The command line: `npm run service -- --port 8787 --db .data/service.db ...`.
// Listens, prints what a user needs to start a curl session, stops on signals.
import { randomBytes } from "node:crypto";
import { Command, InvalidArgumentError } from "commander";
import { buildApp } from "./app";
import { faultsFromFlags } from "./faults";
import { DEFAULT_OPTIONS } from "./options";
import { DEFAULT_CUSTOMERS, SUB_ACCOUNTS_PER_CUSTOMER, seedCustomers } from "./seed/customers";

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}
function rate(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError("expected a number from 0 to 1");
  return n;
}

interface Flags {
  port: number;
  host: string;
  db: string;
  tokenTtl: number;
  rateLimit: number;
  adminKey?: string;
  clientId: string;
  clientSecret: string;
  latencyMs: number;
  subAccounts: number;
  faultRate: number;
  log: boolean;
  profile?: string;
  ui: boolean;
  consolePasswords: boolean;
}

async function main(): Promise<void> {
  // buildApp's defaults are the flags' defaults; only --db differs, a file rather than memory.
  const demoCustomer = DEFAULT_CUSTOMERS[0];
  const program = new Command()
    .name("embedded-connectors-service")
    .description("The local Embedded Connectors Service")
    .option("--port <port>", "port to listen on (0 = a free port)", integer(0, 65535), 8787)
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--db <path>", "SQLite database file, or :memory:", ".data/service.db")
    .option(
      "--token-ttl <seconds>",
      "lifetime of access tokens",
      integer(1, 86400 * 30),
      DEFAULT_OPTIONS.tokenTtlSeconds,
    )
    .option(
      "--rate-limit <n>",
      "requests per second per client (0 = off)",
      integer(0, 1_000_000),
      DEFAULT_OPTIONS.rateLimitPerSecond,
    )
    .option("--admin-key <key>", "enables /_admin/* with header x-admin-key")
    .option("--client-id <id>", "client id of the first seeded customer", demoCustomer.clientId)
    .option("--client-secret <secret>", "client secret of the first seeded customer", demoCustomer.clientSecret)
    .option(
      "--sub-accounts <n>",
      "sub-accounts per seeded customer (more later: POST /_admin/sub-accounts)",
      integer(1, 10_000),
      SUB_ACCOUNTS_PER_CUSTOMER,
    )
    .option("--latency-ms <ms>", "added latency per request (jitter up to half of it)", integer(0, 60_000), 0)
    .option("--fault-rate <rate>", "share of requests answered 500/503", rate, 0)
    .option("--no-log", "no request log")
    .option(
      "--ui",
      "serve the web page at /ui (also EMBEDDED_SERVICE_UI=1); without --admin-key, makes a random one",
      process.env.EMBEDDED_SERVICE_UI === "1",
    )
    .option(
      "--console-passwords",
      "answer as many consoles do: a Password's type spelled `password`, a set one's value `********`",
      false,
    )
    .option(
      "--profile <file>",
      "serve this service profile (JSON or YAML, profiles/*.yaml) instead of the contract's routes",
    )
    .parse();
  const flags = program.opts<Flags>();

  const firstCustomer = { clientId: flags.clientId, clientSecret: flags.clientSecret };
  // The page calls the admin API; it takes the key from its URL's fragment, printed below.
  const adminKey = flags.adminKey || (flags.ui ? randomBytes(12).toString("hex") : undefined);
  const app = buildApp({
    db: flags.db,
    tokenTtlSeconds: flags.tokenTtl,
    rateLimitPerSecond: flags.rateLimit,
    adminKey,
    ui: flags.ui,
    firstCustomer,
    subAccountsPerCustomer: flags.subAccounts,
    faults: faultsFromFlags(flags.latencyMs, flags.faultRate),
    logger: flags.log,
    consolePasswords: flags.consolePasswords,
    ...(flags.profile === undefined ? {} : { profile: flags.profile }),
  });
  const baseUrl = await app.listen({ port: flags.port, host: flags.host });

  const lines = [`Embedded Connectors Service listening on ${baseUrl}`, `  database: ${flags.db}`];
  for (const c of seedCustomers(firstCustomer, flags.subAccounts)) {
    lines.push(`  customer ${c.clientId} / ${c.clientSecret}`);
    lines.push(`    organization account ${c.organizationAccountId} (connectors are not managed here)`);
    const more = c.subAccountIds.length > 5 ? `, … (${c.subAccountIds.length} in all: GET /_admin/customers)` : "";
    lines.push(`    sub-accounts ${c.subAccountIds.slice(0, 5).join(", ")}${more}`);
  }
  if (!adminKey) lines.push("  admin API: off (--admin-key)");
  else if (flags.adminKey) lines.push("  admin API: /_admin/* with header x-admin-key");
  else lines.push(`  admin API: /_admin/* with header x-admin-key: ${adminKey} (made for --ui)`);
  if (flags.ui) lines.push(`  web page: ${baseUrl}/ui#key=${adminKey}`);
  lines.push(`  OpenAPI: ${baseUrl}/es/v2/openapi.json`);
  if (flags.consolePasswords) lines.push("  Passwords: as a console answers them (type `password`, value `********`)");
  if (flags.profile) lines.push(`  profile: ${flags.profile} (its routes instead of the contract's)`);
  process.stdout.write(`${lines.join("\n")}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping\n`);
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`error while stopping: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
