// Test doubles for the client: a scripted transport (no network) and answer builders.
import type { IncomingResponse, OutgoingRequest, Transport } from "../../provider/client";

export type Script = (request: OutgoingRequest, index: number) => IncomingResponse | Promise<IncomingResponse>;

/**
 * Past this many requests a client is looping (a retry that does not wait, on a fake clock
 * that only its waits move): the transport then fails the call, by name, instead of letting
 * the test run until the process runs out of memory.
 */
export const MAX_SCRIPTED_REQUESTS = 1_000;

/** Answers each request with the script; records every request it saw. */
export class ScriptedTransport implements Transport {
  readonly requests: OutgoingRequest[] = [];
  constructor(
    private readonly script: Script,
    private readonly maxRequests = MAX_SCRIPTED_REQUESTS,
  ) {}

  async send(request: OutgoingRequest): Promise<IncomingResponse> {
    if (this.requests.length >= this.maxRequests) {
      throw new Error(
        `the client sent more than ${this.maxRequests} requests: it repeats without waiting (a disabled 429 wait?)`,
      );
    }
    this.requests.push(request);
    return this.script(request, this.requests.length - 1);
  }

  /** Requests to paths that start with `prefix` (after the base path). */
  to(prefix: string): OutgoingRequest[] {
    return this.requests.filter((r) => r.target.startsWith(prefix));
  }
}

export function answer(status: number, body: unknown, extra: Partial<IncomingResponse> = {}): IncomingResponse {
  return {
    status,
    requestId: extra.requestId ?? `srv-${status}`,
    contentType: "application/json; charset=utf-8",
    retryAfter: undefined,
    body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
    ...extra,
  };
}

export function ok(payload: unknown, extra: Partial<IncomingResponse> = {}): IncomingResponse {
  return answer(200, { statusCode: 200, statusMessage: "OK", response: payload }, extra);
}

export function failure(
  status: number,
  statusMessage: string,
  extra: Record<string, unknown> = {},
  headers: Partial<IncomingResponse> = {},
): IncomingResponse {
  return answer(status, { statusCode: status, statusMessage, response: null, ...extra }, headers);
}

export function tokenAnswer(accessToken = "tok-1", expiry = 3600): IncomingResponse {
  return answer(200, { accessToken, tokenType: "Bearer", expiry });
}

export const ACCOUNT = "a1b2c3d4e5f60718";
export const CONNECTOR = "0123456789abcdef";
export const OTHER = "fedcba9876543210";

export function viewA(connectorId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    connectorId,
    platformId: "p123456789abcdef",
    name: `Connector ${connectorId}`,
    logo: "https://example.test/logo.png",
    dataType: "reporting",
    dataTypeCategory: "reporting",
    platformType: "CRM Platform",
    supportedType: "Source",
    transfer: true,
    configured: false,
    description: "a connector",
    srcConnections: 0,
    destConnections: 0,
    editable: true,
    env: "production",
    ...extra,
  };
}

export function viewG(connectorId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const {
    transfer: _t,
    configured: _c,
    description: _d,
    srcConnections: _s,
    destConnections: _dc,
    editable: _e,
    env: _v,
    ...common
  } = viewA(connectorId);
  return { ...common, docUrl: "https://example.test/doc", integrated: true, status: 1, ...extra };
}

export function configurationPayload(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const fields = [
    { id: "apiKey", label: "API key", type: "Password", required: true, readonly: false },
    {
      id: "region",
      label: "Region",
      type: "Select",
      required: false,
      readonly: false,
      options: ["eu", "us"],
      value: "eu",
    },
    { id: "limit", label: "Limit", type: "Number", required: false, readonly: false, min: 1, max: 10 },
  ];
  return {
    secretConfig: [
      {
        configurationId: "c0c0c0c0c0c0c0c0",
        name: "default",
        secretName: "s",
        configured: false,
        lastUpdated: 0,
        configuration: fields,
      },
    ],
    connectionConfig: [{ configurationId: "d0d0d0d0d0d0d0d0", name: "connection", configuration: [] }],
    editable: true,
    env: "production",
    configured: false,
    lastUpdated: 0,
    secretName: "s",
    configuration: fields,
    ...extra,
  };
}

/** A sleep that records the delays and returns at once (no timing in tests). */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

/** The error a promise rejects with (a test failure if it resolves). */
export async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a refusal");
}
