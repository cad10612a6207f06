// What the service takes: path parameters, query strings and bodies, as the service declares
// and validates them (the OpenAPI document is generated from these). The client builds the
// same requests; `ClientRequest<…>` is a request part as sent, `ServiceRequest<…>` as the
// service reads it (query strings coerced, defaults filled in).
import { z } from "zod";
import {
  DEFAULT_PAGE_SIZE,
  ID_FORMAT,
  ID_PATTERN,
  MAX_ADD_IDS,
  MAX_PAGE_SIZE,
  MAX_TEXT_LENGTH,
  MIN_PAGE_SIZE,
} from "./ids";
import { DATA_TYPES, DATA_TYPE_CATEGORIES, PLATFORM_TYPES, SUPPORTED_TYPES } from "./values";

const ConnectorId = z.string().regex(ID_PATTERN, `must be ${ID_FORMAT}`);
const accountId = z.string({ error: "accountId is required" }).min(1, "accountId is required");
const paging = {
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(MIN_PAGE_SIZE).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
};
const text = z.string().max(MAX_TEXT_LENGTH);
/** A secret configuration value: Multi-Select takes a list (or comma-separated text). */
const FieldValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const requests = {
  /** A connector id wherever a request names one. */
  ConnectorId,
  FieldValue,
  /** Path of the routes under /es/v2/connectors/{connectorId}. */
  ConnectorParams: z.object({ connectorId: z.string() }),
  /** Query of every connector route but the lists. */
  AccountQuery: z.object({ accountId }),
  /** Query of List Connectors and List Added Connectors: filters and paging. */
  ListQuery: z.object({
    accountId,
    dataType: z.enum(DATA_TYPES).optional(),
    dataTypeCategory: z.enum(DATA_TYPE_CATEGORIES).optional(),
    platformType: z.enum(PLATFORM_TYPES).optional(),
    supportedType: z.enum(SUPPORTED_TYPES).optional(),
    name: text.optional(),
    ...paging,
  }),
  /** Query of List Supported Connectors. */
  SupportedQuery: z.object({ accountId, connectorId: ConnectorId, ...paging }),
  /** Body of Add Connector: 1 to 50 distinct ids. */
  AddConnectorsBody: z.object({
    connectorIds: z
      .array(ConnectorId)
      .min(1)
      .max(MAX_ADD_IDS)
      .refine((ids) => new Set(ids).size === ids.length, "connectorIds must be unique")
      // Declared in the OpenAPI document too (the fuzzer sent duplicates the schema allowed).
      .meta({ uniqueItems: true }),
  }),
  /** Body of Configure Connector. */
  ConfigureBody: z.object({
    configurationId: z.string(),
    name: text.optional(),
    secretName: text.optional(),
    secretConfig: z.record(z.string(), FieldValue),
  }),
  /** Body of Get Access Token. */
  TokenBody: z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1) }),
};

export type RequestName = keyof typeof requests;
/** A request part as the service reads it, e.g. `ServiceRequest<"ConfigureBody">`. */
export type ServiceRequest<K extends RequestName> = z.output<(typeof requests)[K]>;
/** A request part as a client sends it, e.g. `ClientRequest<"ConfigureBody">`. */
export type ClientRequest<K extends RequestName> = z.input<(typeof requests)[K]>;
