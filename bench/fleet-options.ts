// The options of `npm run bench:fleet` (bench/fleet.ts), read from its argv, and the command line
// that gives them again: each record names the invocation that measured it.
import { BACKEND_KINDS, type BackendKind } from "./fleet-backend";
import { SECRETS_KINDS, type SecretsKind } from "./stack-keys";

export interface FleetBenchOptions {
  /** Stacks applied by `fleet up` (the small fleet's comparison; the templates of the generated ones). */
  stacks: number;
  connectors: number;
  /** Generated stacks (fleet-large.ts); 0: none. */
  large: number;
  /** The `refresh --preview-only` loop on this many of the generated stacks, in the same run; 0: none. */
  loopStacks: number;
  /** The small fleet's `fleet drift` and its loop, measured this many times each, in turn (the median recorded). */
  repeat: number;
  /** The service's rate limit per client id while the small fleet is measured (0: off). */
  rateLimit: number;
  /** Its rate limit while the generated stacks are measured. */
  largeRateLimit: number;
  backend: BackendKind;
  secrets: SecretsKind;
  /** Measure `fleet drift --engine` and the `preview --refresh` loop too (the slow rows). */
  engineRows: boolean;
  /** A directory for the V8 CPU profile of every fast-path `fleet drift` (node --cpu-prof). */
  cpuProf?: string;
  results?: string;
}

function integer(argv: string[], name: string, fallback: number, min: number): number {
  const at = argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer of at least ${min}`);
  return value;
}

function text(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : undefined;
}

function oneOf<T extends string>(argv: string[], name: string, kinds: readonly T[], fallback: T): T {
  const value = text(argv, name) ?? fallback;
  if (!(kinds as readonly string[]).includes(value)) throw new Error(`--${name} must be one of ${kinds.join(", ")}`);
  return value as T;
}

/** `defaultRateLimit`: the service's own (service/options.ts), for the generated stacks unless told. */
export function parseFleetBenchArgs(argv: string[], defaultRateLimit: number): FleetBenchOptions {
  const large = integer(argv, "large", 1000, 0);
  return {
    stacks: integer(argv, "stacks", 50, 1),
    connectors: integer(argv, "connectors", 10, 1),
    large,
    loopStacks: Math.min(large, integer(argv, "loop-stacks", 50, 0)),
    repeat: integer(argv, "repeat", 3, 1),
    rateLimit: integer(argv, "rate-limit", 0, 0),
    largeRateLimit: integer(argv, "large-rate-limit", defaultRateLimit, 0),
    backend: oneOf(argv, "backend", BACKEND_KINDS, "s3"),
    secrets: oneOf(argv, "secrets", SECRETS_KINDS, "passphrase"),
    engineRows: !argv.includes("--no-engine-rows"),
    cpuProf: text(argv, "cpu-prof"),
    results: text(argv, "results"),
  };
}

/** The command line of these options (every option that changes what is measured; not --cpu-prof, --results). */
export function fleetBenchCommand(o: FleetBenchOptions): string {
  const parts = [
    `--stacks ${o.stacks}`,
    `--connectors ${o.connectors}`,
    `--large ${o.large}`,
    ...(o.large > 0 ? [`--loop-stacks ${o.loopStacks}`, `--large-rate-limit ${o.largeRateLimit}`] : []),
    ...(o.repeat !== 1 ? [`--repeat ${o.repeat}`] : []),
    `--rate-limit ${o.rateLimit}`,
    `--backend ${o.backend}`,
    ...(o.secrets !== "passphrase" ? [`--secrets ${o.secrets}`] : []),
    ...(o.engineRows ? [] : ["--no-engine-rows"]),
  ];
  return `npm run bench:fleet -- ${parts.join(" ")}`;
}
