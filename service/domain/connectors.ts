// The rules of the connector operations (specification + contract), over the
// catalogue (given by buildApp) and the repository (state of each sub-account).
import type { AddedRow, Counts, Repository } from "../storage/repository";
import { pairs, type CatalogueConnector } from "./catalogue";
import {
  configurationIdErrors,
  configurationView,
  holds,
  mergeConfigure,
  type PasswordStyle,
  storedValues,
  validateConfigure,
} from "./configuration";
import { ApiError, notFound } from "./errors";
import type { Strict } from "../../contract/views";
import type { ServiceRequest } from "../../contract/requests";

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

const ENV = "production";

function paginate<T>(all: T[], page: number, pageSize: number): Page<T> {
  return { items: all.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: all.length };
}

function matches(c: CatalogueConnector, f: Partial<ServiceRequest<"ListQuery">>): boolean {
  return (
    (f.dataType === undefined || c.dataType === f.dataType) &&
    (f.dataTypeCategory === undefined || c.dataTypeCategory === f.dataTypeCategory) &&
    (f.platformType === undefined || c.platformType === f.platformType) &&
    (f.supportedType === undefined || c.supportedType === f.supportedType) &&
    (f.name === undefined || c.name.toLowerCase().includes(f.name.toLowerCase()))
  );
}

const base = (c: CatalogueConnector) => ({
  connectorId: c.connectorId,
  platformId: c.platformId,
  name: c.name,
  logo: c.logo,
  dataType: c.dataType,
  dataTypeCategory: c.dataTypeCategory,
  platformType: c.platformType,
  supportedType: c.supportedType,
});
const urls = (c: CatalogueConnector) => ({
  ...(c.docUrl === undefined ? {} : { docUrl: c.docUrl }),
  ...(c.overviewUrl === undefined ? {} : { overviewUrl: c.overviewUrl }),
});

export class Connectors {
  private readonly byId = new Map<string, CatalogueConnector>();
  /** Sorted by name then id, so pages are stable. */
  private readonly sorted: CatalogueConnector[];

  constructor(
    private readonly repo: Repository,
    private readonly now: () => number,
    catalogue: readonly CatalogueConnector[],
    /** How the connector routes' views show a Password (buildApp's `consolePasswords`). */
    private readonly passwordStyle: PasswordStyle = "contract",
  ) {
    for (const c of catalogue) this.byId.set(c.connectorId, c);
    this.sorted = [...catalogue].sort(
      (a, b) => a.name.localeCompare(b.name) || a.connectorId.localeCompare(b.connectorId),
    );
  }

  catalogue(connectorId: string): CatalogueConnector {
    const c = this.byId.get(connectorId);
    if (!c) throw notFound(`connector ${connectorId} not found`);
    return c;
  }

  private requireAdded(accountId: string, connectorId: string): { c: CatalogueConnector; row: AddedRow } {
    const c = this.catalogue(connectorId);
    const row = this.repo.added(accountId, connectorId);
    if (!row) throw notFound("connector is not added to this sub-account");
    return { c, row };
  }

  /** 404 unless the connector is in the catalogue and added to the sub-account. */
  assertAdded(accountId: string, connectorId: string): void {
    this.requireAdded(accountId, connectorId);
  }

  private viewA(c: CatalogueConnector, row: AddedRow, counts: Counts): Strict<"AddedConnectorView"> {
    return {
      ...base(c),
      transfer: c.transfer,
      configured: row.configured === 1,
      description: c.description,
      ...counts,
      editable: true,
      env: ENV,
    };
  }

  getConnector(connectorId: string): Strict<"Connector"> {
    const c = this.catalogue(connectorId);
    return { ...base(c), ...urls(c), integrated: c.integrated, status: c.status };
  }

  list(filters: ServiceRequest<"ListQuery">): Page<Strict<"CatalogueConnector">> {
    const all = this.sorted
      .filter((c) => matches(c, filters))
      .map((c) => ({ ...base(c), ...urls(c), transfer: c.transfer }));
    return paginate(all, filters.page, filters.pageSize);
  }

  /** Atomic: one unknown id refuses the whole call before anything is written. */
  add(accountId: string, connectorIds: string[]): { added: Strict<"AddedConnectorView">[]; alreadyAdded: string[] } {
    const unknown = connectorIds.filter((id) => !this.byId.has(id));
    if (unknown.length > 0) throw notFound(`unknown connector id(s): ${unknown.join(", ")}`);
    const now = this.now();
    return this.repo.transaction(() => {
      const added: Strict<"AddedConnectorView">[] = [];
      const alreadyAdded: string[] = [];
      for (const id of connectorIds) {
        if (this.repo.addConnector(accountId, id, now)) {
          added.push(
            this.viewA(this.catalogue(id), this.repo.added(accountId, id) as AddedRow, this.repo.counts(accountId, id)),
          );
        } else {
          alreadyAdded.push(id);
        }
      }
      return { added, alreadyAdded };
    });
  }

  listAdded(accountId: string, filters: ServiceRequest<"ListQuery">): Page<Strict<"AddedConnectorView">> {
    const rows = new Map(this.repo.addedAll(accountId).map((r) => [r.connector_id, r]));
    const all = this.sorted
      .filter((c) => rows.has(c.connectorId) && matches(c, filters))
      .map((c) => this.viewA(c, rows.get(c.connectorId) as AddedRow, this.repo.counts(accountId, c.connectorId)));
    return paginate(all, filters.page, filters.pageSize);
  }

  listSupported(
    accountId: string,
    connectorId: string,
    page: number,
    pageSize: number,
  ): Page<Strict<"SupportedConnector">> {
    const given = this.catalogue(connectorId);
    const rows = new Map(this.repo.addedAll(accountId).map((r) => [r.connector_id, r]));
    const all = this.sorted
      .filter((c) => pairs(given, c))
      .map((c): Strict<"SupportedConnector"> => {
        const row = rows.get(c.connectorId);
        const counts = row ? this.repo.counts(accountId, c.connectorId) : { srcConnections: 0, destConnections: 0 };
        return {
          ...base(c),
          transfer: c.transfer,
          configured: row?.configured === 1,
          description: c.description,
          ...counts,
        };
      });
    return paginate(all, page, pageSize);
  }

  getConfiguration(accountId: string, connectorId: string): Strict<"ConnectorConfigurationView"> {
    const c = this.catalogue(connectorId);
    return configurationView(c, accountId, this.repo.added(accountId, connectorId), this.passwordStyle);
  }

  /** The configuration as the service holds it, in the contract's style whatever the routes answer. */
  heldConfiguration(accountId: string, connectorId: string): Strict<"ConnectorConfigurationView"> {
    return configurationView(this.catalogue(connectorId), accountId, this.repo.added(accountId, connectorId));
  }

  /** Whether the service holds each given value (the admin API's check; no value leaves it). */
  holds(
    accountId: string,
    connectorId: string,
    given: Record<string, ServiceRequest<"FieldValue">>,
  ): Record<string, boolean> {
    const { c, row } = this.requireAdded(accountId, connectorId);
    return holds(c, storedValues(row), given);
  }

  /**
   * Saves a configuration: the whole of it (the contract's PUT: a field the body leaves out is
   * cleared), or, with `keepOmitted` (a profile's `configureWrites: given`), the fields given,
   * the others keeping what the service holds (Passwords included).
   */
  configure(
    accountId: string,
    connectorId: string,
    body: ServiceRequest<"ConfigureBody">,
    keepOmitted = false,
  ): Strict<"ConnectorConfigurationView"> {
    const { c } = this.requireAdded(accountId, connectorId);
    const refused = (errors: Strict<"FieldError">[]) => new ApiError(400, "invalid configuration", { errors });
    if (keepOmitted) {
      const wrongId = configurationIdErrors(c, body);
      return this.save(c, accountId, (row) => {
        const merged = mergeConfigure(c, storedValues(row), body.secretConfig);
        if (wrongId.length > 0 || "errors" in merged)
          throw refused([...wrongId, ...("errors" in merged ? merged.errors : [])]);
        return { name: body.name ?? null, secretName: body.secretName ?? null, values: merged.values };
      });
    }
    const checked = validateConfigure(c, body);
    if ("errors" in checked) throw refused(checked.errors);
    return this.save(c, accountId, () => ({
      name: body.name ?? null,
      secretName: body.secretName ?? null,
      values: checked.values,
    }));
  }

  /**
   * Changes only the fields given, keeping the others as stored (Passwords included) and the
   * configuration's name and secret name: the admin API's merge, which the web page uses.
   */
  mergeConfiguration(
    accountId: string,
    connectorId: string,
    changes: Record<string, ServiceRequest<"FieldValue">>,
  ): Strict<"ConnectorConfigurationView"> {
    const { c } = this.requireAdded(accountId, connectorId);
    return this.save(c, accountId, (row) => {
      const merged = mergeConfigure(c, storedValues(row), changes);
      if ("errors" in merged) throw new ApiError(400, "invalid configuration", { errors: merged.errors });
      return { name: row.configuration_name, secretName: row.secret_name, values: merged.values };
    });
  }

  /** Saves what `next` makes of the row, read in the same transaction (a Remove may have won the race). */
  private save(
    c: CatalogueConnector,
    accountId: string,
    next: (row: AddedRow) => { name: string | null; secretName: string | null; values: Record<string, string> },
  ): Strict<"ConnectorConfigurationView"> {
    const connectorId = c.connectorId;
    const nowSeconds = Math.floor(this.now() / 1000);
    return this.repo.transaction(() => {
      const row = this.repo.added(accountId, connectorId);
      if (!row) throw notFound("connector is not added to this sub-account");
      const saved = next(row);
      const lastUpdated = Math.max(nowSeconds, this.repo.lastConfigured(accountId, connectorId) + 1);
      this.repo.saveConfiguration(accountId, connectorId, {
        ...saved,
        values: JSON.stringify(saved.values),
        lastUpdated,
      });
      return configurationView(c, accountId, this.repo.added(accountId, connectorId), this.passwordStyle);
    });
  }

  remove(accountId: string, connectorId: string): { removed: string } {
    this.catalogue(connectorId);
    return this.repo.transaction(() => {
      if (!this.repo.added(accountId, connectorId)) throw notFound("connector is not added to this sub-account");
      const counts = this.repo.counts(accountId, connectorId);
      if (counts.srcConnections + counts.destConnections > 0) {
        throw new ApiError(409, "connector is used in connections", { response: counts });
      }
      this.repo.removeAdded(accountId, connectorId);
      return { removed: connectorId };
    });
  }
}
