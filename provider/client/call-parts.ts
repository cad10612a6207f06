// The parts of one call of the service, and its answer: what client.ts sends and what its
// list reading (listing.ts) gets back.
import type { ClientRequest } from "../../contract/requests";
import type { QueryValue } from "./routes";
import type { BodyContext } from "./schemas";

export type ConnectorFilters = Omit<ClientRequest<"ListQuery">, "accountId" | "page" | "pageSize">;

export interface CallParts {
  /** The request's parameters by the client's name: in the path or the query, as the profile says. */
  params?: Partial<Record<"accountId" | "connectorId" | keyof ConnectorFilters, QueryValue>>;
  /** Query entries by their wire name (paging). */
  raw?: Record<string, QueryValue>;
  /** A next-page link the service gave (path and query, same origin), used as the target. */
  link?: string;
  body?: unknown;
  /** The body holds secret values (a secretConfig, the client secret): errors leave the service's text out. */
  secretBody?: boolean;
  /** Field names an error may show besides the body's keys (a required field not sent). */
  fieldNames?: readonly string[];
}

export interface Answer {
  json: unknown;
  ctx: BodyContext;
  retried: boolean;
  /** The answer's body size (a list's pages count against its byte budget). */
  bytes: number;
}
