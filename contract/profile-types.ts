// The resolved service profile's types, written out (no zod): they are part of the package's
// public types (ProviderSettings.profile), which must not need zod's declarations.
// profile-schema.ts checks that its schema's output fits them.
import type { HttpMethod, OperationName } from "./routes";

/** The parameters a request may carry, by the client's name: the wire name is the profile's `query`. */
export type RequestParameter =
  "accountId" | "connectorId" | "dataType" | "dataTypeCategory" | "platformType" | "supportedType" | "name";
/** Body fields by the client's name (Add: connectorIds; Configure: the rest). */
export type BodyField = "connectorIds" | "configurationId" | "name" | "secretName" | "secretConfig";

/** How a list pages: page numbers, offsets, or not at all. */
export type PagingStyle =
  | { style: "page"; page: string; pageSize: string; maxSize: number; firstPage?: 0 | 1 }
  | { style: "offset"; offset: string; size: string; maxSize: number }
  | { style: "none" };

/** Where a list's parts are (dotted paths; "" is the payload itself; null: the service sends none). */
export interface ListShape {
  items: string;
  total: string | null;
  next: string | null;
}

/** The envelope: present, absent or either, and where its parts are. */
export interface EnvelopeShape {
  mode: "present" | "absent" | "auto";
  payload: string;
  status: string[];
  message: string[];
}

/** What the service does beyond the wire (docs/service-profile.md, `semantics`). */
export interface ProfileSemantics {
  addReportsAlreadyAdded: boolean;
  configurationBeforeAdd: "readable" | "notFound";
  lastUpdated: "increasing" | "absent";
  conflictCounts: boolean;
  errorStatusIn: "http" | "body";
  supportedTypes: string[];
  /** What Configure does with the fields a body leaves out: clears them (whole), or keeps them (given). */
  configureWrites: "whole" | "given";
  /** Field type names the service uses for a secret, besides Password and Secret (any letter case). */
  secretFieldTypes: string[];
}

export interface ResolvedOperation {
  readonly operation: OperationName;
  readonly title: string;
  readonly retrySafe: boolean;
  readonly authenticated: boolean;
  readonly method: HttpMethod;
  readonly path: string;
  /** Client name → wire name of every parameter; one the path names goes in the path instead. */
  readonly query: Readonly<Record<RequestParameter, string>>;
  readonly paging: PagingStyle;
  readonly list: ListShape;
  readonly envelope: EnvelopeShape;
  readonly fields: Readonly<Record<BodyField, string>>;
  readonly success: "view" | "empty";
}

/** A service profile laid over the built-in default: what every reader gets. */
export interface ResolvedProfile {
  readonly name: string;
  readonly description: string;
  /** "built-in", or the file it was read from. */
  readonly source: string;
  readonly operations: Readonly<Record<OperationName, ResolvedOperation>>;
  readonly semantics: ProfileSemantics;
}
