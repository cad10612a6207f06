// Canaries of the secrets tests: values that appear nowhere else, one per field type of a
// connector's secretConfig, so that finding one in the state, the backend's files, the engine's
// output or a service's log proves a leak. Drawn from a seed: a failed test prints it (after
// each test of a describe that calls replayCanariesOnFailure), and CANARY_SEED=<seed> replays
// the same values; a label gives the same value wherever it is drawn.
import { createHash } from "node:crypto";
import { QUOTED_FORMS } from "../../service/quote-back";
import { printSeedOnFailure, seedFrom } from "../support/seed";
import { assertNoSecret } from "./harness";

export const CANARY_SEED = seedFrom("CANARY_SEED");

/** Inside a describe: after a failed test, prints the CANARY_SEED that replays its canaries. */
export function replayCanariesOnFailure(): void {
  printSeedOnFailure("CANARY_SEED", CANARY_SEED);
}

/** 32 bytes drawn from the seed and the label. */
function draw(label: string): Buffer {
  return createHash("sha256").update(`${CANARY_SEED}:${label}`).digest();
}

/** A Text or Password value: "canary-<label>-<12 hex digits>". */
export function canary(label: string): string {
  return `canary-${label}-${draw(label).subarray(0, 6).toString("hex")}`;
}

/**
 * A Number, as the string "NNNN.NNNNNN" (1000..4999.x: within every Number field's range, and
 * how the service stores it). It cannot carry a label: its 10 digits around the point are the
 * evidence (3.6·10^9 values: a chance match elsewhere is negligible). A program may write it as a
 * number literal: the last digit is never 0, so the number prints back as the same string.
 */
export function numberCanary(label: string): string {
  const bytes = draw(label);
  const fraction = String(bytes.readUInt32BE(4) % 100_000).padStart(5, "0");
  return `${1000 + (bytes.readUInt32BE(0) % 4000)}.${fraction}${1 + (bytes.readUInt32BE(8) % 9)}`;
}

/** A Date in the ISO 8601 form with microseconds, in 2031: unlikely anywhere else. */
export function dateCanary(label: string): string {
  const bytes = draw(label);
  const at = (i: number, n: number) => bytes.readUInt32BE(i * 4) % n;
  const two = (n: number) => String(n).padStart(2, "0");
  const micros = String(at(6, 1_000_000)).padStart(6, "0");
  return `2031-${two(1 + at(0, 12))}-${two(1 + at(1, 28))}T${two(at(2, 24))}:${two(at(3, 60))}:${two(at(4, 60))}.${micros}Z`;
}

/**
 * Select and Multi-Select canaries: their values must be among the seeded options
 * (service/seed/catalogue.ts), so these are options that no connector's name, description or
 * URL holds, nor any test program's plain config; their absence is the evidence.
 */
export const OPTION_CANARIES = {
  /** Select: the storage connectors' region. */
  region: "ap-southeast-2",
  /** Multi-Select: the storage connectors' file formats. */
  fileFormats: "parquet",
  /** Multi-Select: the API-key connectors' event types. */
  eventTypes: "purchase",
  /** Multi-Select: the OAuth connectors' permissions. */
  permissions: "conversions",
} as const;

/** The forms a value takes in an output: as it is, JSON-escaped, URL-encoded, base64 (matched in any case). */
function formsOf(value: string): [string, string][] {
  const forms: [string, string][] = [
    ["as it is", value],
    ["JSON-escaped", JSON.stringify(value).slice(1, -1)],
    ["URL-encoded", encodeURIComponent(value)],
    ["base64", Buffer.from(value).toString("base64").replace(/=+$/, "")],
    ["base64url", Buffer.from(value).toString("base64url")],
    ["hex", Buffer.from(value).toString("hex")],
  ];
  return forms.filter(([, form]) => form.length > 0);
}

/** Which form of the value the text holds, in any case; undefined when none. */
export function leakedForm(text: string, value: string): string | undefined {
  const lower = text.toLowerCase();
  return formsOf(value).find(([, form]) => lower.includes(form.toLowerCase()))?.[0];
}

/** Fails when the text holds the value in any case or encoding, naming the form and where, never the value. */
export function assertNoCanary(text: string, value: string, where: string): void {
  const form = leakedForm(text, value);
  if (form !== undefined) throw new Error(`a secret value appears (${form}, in some case) in ${where}`);
}

/**
 * No canary in the text: in any case or encoding; the short Select and
 * Multi-Select option canaries ("parquet") as they are, since other words hold them in some case.
 */
export function assertNoLeak(text: string, value: string, where: string): void {
  assertNoSecret(text, value, where); // as it is: the failure shows where, the value masked
  if (value.length >= 12) assertNoCanary(text, value, where);
}

/**
 * What of `value` quoted back by a careless service (service/quote-back.ts: upper-cased,
 * lower-cased, truncated, base64, URL-encoded, JSON-escaped) must appear nowhere: each form's
 * first 32 characters, enough to be telling, and found even in a line a report cut short.
 */
export function quotedTelltales(value: string): { form: string; telltale: string }[] {
  return Object.entries(QUOTED_FORMS).map(([form, quote]) => ({
    form,
    telltale: quote(value.slice(0, 64)).replace(/…$/, "").slice(0, 32),
  }));
}
