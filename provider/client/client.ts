// EmbeddedClient: the service's operations as typed methods. Each call goes through one
// loop: shared token → limiter slot → one request → decode → retry decision (retry.ts).
import { z } from "zod";
import type { ResolvedOperation, ResolvedProfile } from "../../contract/profile";
import { describeShape } from "../../contract/shape";
import { errorInBody, readPayload } from "./answers";
import type { Answer, CallParts, ConnectorFilters } from "./call-parts";
import { resolveSettings, type ClientSettings, type ResolvedSettings } from "./client-settings";
import {
  AuthenticationError,
  EmbeddedApiError,
  gaveUpRetrying,
  gaveUpWaiting,
  NetworkError,
  ResponseFormatError,
  ServerError,
} from "./errors";
import { createPool, decodeResponse, newRequestId, shownRequestId, UndiciTransport, type Transport } from "./http";
import { Limiter } from "./limiter";
import { linkTargetOf, listOf } from "./listing";
import { hidingAlso, queryKeysOf, sentRequestOf } from "./service-text";
import type { PaginateOptions } from "./pagination";
import { addResultOf, configureBodyOf, filtersOf, isSilent, type ConfigureBody } from "./requests";
import { targetOf, type OperationName } from "./routes";
import { shouldRetry, waitsForService } from "./retry";
import {
  loose,
  parseToken,
  type AddedConnectorView,
  type BodyContext,
  type CatalogueConnector,
  type Connector,
  type ConnectorConfigurationView,
  type SupportedConnector,
} from "./schemas";
import { credentialsRefused, TokenManager, type IssuedToken } from "./token";
import { checkAccountId, checkConnectorIds, checkId } from "./validation";

export type { ClientSettings, ConfigureBody, ConnectorFilters };

/** What tests (and the per-process registry) may replace. */
export interface ClientDependencies {
  transport: Transport;
  limiter: Limiter;
  now: () => number;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * Filters of List Connectors and List Added Connectors: the contract's list query without the
 * sub-account and the paging. The public copy (lookups/types.ts) is written out, and checked
 * against this one by the compiler (lookups/program-context.ts).
 */

export interface AddConnectorsResult {
  added: AddedConnectorView[];
  /**
   * Ids that were already added; undefined when the answer does not say (a service without
   * `alreadyAdded`, or with no success body): the caller then tells them from a listing.
   */
  alreadyAdded: string[] | undefined;
  /**
   * True when an earlier attempt of this call may have been processed (no answer, or 5xx)
   * before the one that succeeded: an id in `alreadyAdded` may then be this call's doing.
   * Attempts refused outright (401 before a token renewal, 429) do not count.
   */
  retried: boolean;
  /** The Add answer's route, request id and status: what a refusal of what it said quotes. */
  answer?: BodyContext;
}

export interface ConfigureResult {
  view: ConnectorConfigurationView;
  /**
   * True when an earlier attempt may have been processed (no answer, or 5xx): it may land
   * after the one that answered, so the live lastUpdated can be newer than `view`'s.
   */
  retried: boolean;
}

/** What Configure may be told besides the body. */
export interface ConfigureOptions {
  /** The connector's field ids (its descriptors): a refusal may name one not sent (a missing required field). */
  fieldIds?: readonly string[];
}

const USER_AGENT = "pulumi-embedded-connectors (undici)";
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class EmbeddedClient {
  /** origin + base path: the key under which pools and limiters are shared. */
  readonly baseUrl: string;
  readonly limiter: Limiter;
  private readonly settings: ResolvedSettings;
  private readonly transport: Transport;
  private readonly tokens: TokenManager;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private requests = 0;

  /** A client of raw settings, resolved here (tests, one-off tools); getClient() hands resolved ones to the constructor. */
  static create(settings: ClientSettings, deps: Partial<ClientDependencies> = {}): EmbeddedClient {
    return new EmbeddedClient(resolveSettings(settings), deps);
  }

  /** Takes settings resolved once (client-settings.ts resolveSettings), as getClient() does. */
  constructor(settings: ResolvedSettings, deps: Partial<ClientDependencies> = {}) {
    this.settings = settings;
    const { url, timeouts, caCertificate, concurrency, maxResponseBytes } = this.settings;
    this.baseUrl = url.normalized;
    this.transport =
      deps.transport ?? new UndiciTransport(createPool(url.origin, { ...timeouts, caCertificate }), maxResponseBytes);
    this.limiter = deps.limiter ?? new Limiter(concurrency);
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.sleep = deps.sleep ?? sleep;
    this.tokens = new TokenManager(() => this.fetchToken(), { now: this.now });
  }

  /** Token requests made by this client (the target is one per process). */
  get tokenRequests(): number {
    return this.tokens.tokenRequests;
  }

  /** HTTP requests sent, token requests and retries included. */
  get requestCount(): number {
    return this.requests;
  }

  /** The service profile this client reads the service by (the built-in one unless set). */
  get profile(): ResolvedProfile {
    return this.settings.profile;
  }

  /** The profile's form of an operation (docs/service-profile.md). */
  private op(operation: OperationName): ResolvedOperation {
    return this.settings.profile.operations[operation];
  }

  /** Get Connector: view G. */
  async getConnector(accountId: string, connectorId: string): Promise<Connector> {
    const params = { accountId: checkAccountId(accountId), connectorId: checkId("connectorId", connectorId) };
    const answer = await this.call("getConnector", { params });
    return readPayload(this.op("getConnector"), loose.Connector, answer.json, answer.ctx);
  }

  /** List Connectors: view L, every page. */
  listConnectors(accountId: string, filters: ConnectorFilters = {}): AsyncIterable<CatalogueConnector> {
    return this.list("listConnectors", loose.CatalogueConnector, {
      accountId: checkAccountId(accountId),
      ...filtersOf(filters),
    });
  }

  /**
   * Add Connector: atomic; ids already added come back in `alreadyAdded` when the service says
   * (undefined when it does not: see AddConnectorsResult).
   */
  async addConnectors(accountId: string, connectorIds: readonly string[]): Promise<AddConnectorsResult> {
    const params = { accountId: checkAccountId(accountId) };
    const op = this.op("addConnectors");
    const body = { [op.fields.connectorIds]: checkConnectorIds(connectorIds) };
    const answer = await this.call("addConnectors", { params, body });
    return { ...addResultOf(op, answer.json, answer.ctx), retried: answer.retried, answer: answer.ctx };
  }

  /** List Added Connectors: view A, every page (`options.allAtOnce`: see PaginateOptions). */
  listAddedConnectors(
    accountId: string,
    filters: ConnectorFilters = {},
    options: PaginateOptions = {},
  ): AsyncIterable<AddedConnectorView> {
    const params = { accountId: checkAccountId(accountId), ...filtersOf(filters) };
    return this.list("listAddedConnectors", loose.AddedConnectorView, params, options);
  }

  /** List Supported Connectors: the connectors that pair with `connectorId` (view S), every page. */
  listSupportedConnectors(accountId: string, connectorId: string): AsyncIterable<SupportedConnector> {
    return this.list("listSupportedConnectors", loose.SupportedConnector, {
      accountId: checkAccountId(accountId),
      connectorId: checkId("connectorId", connectorId),
    });
  }

  /** Get Connector Configuration (also for a connector that is not added: `configured: false`, or a 404 on some services). */
  async getConfiguration(accountId: string, connectorId: string): Promise<ConnectorConfigurationView> {
    const params = { accountId: checkAccountId(accountId), connectorId: checkId("connectorId", connectorId) };
    const answer = await this.call("getConfiguration", { params });
    return readPayload(this.op("getConfiguration"), loose.ConnectorConfigurationView, answer.json, answer.ctx);
  }

  /** Configure Connector: replaces the whole secret configuration. */
  async configure(
    accountId: string,
    connectorId: string,
    body: ConfigureBody,
    options: ConfigureOptions = {},
  ): Promise<ConnectorConfigurationView> {
    return (await this.configureWithOutcome(accountId, connectorId, body, options)).view;
  }

  /**
   * Configure Connector, saying whether an attempt with an unknown outcome came before the answer.
   * An answer that says nothing (no body, or none of the view's fields) is confirmed by reading.
   */
  async configureWithOutcome(
    accountId: string,
    connectorId: string,
    body: ConfigureBody,
    options: ConfigureOptions = {},
  ): Promise<ConfigureResult> {
    const params = { accountId: checkAccountId(accountId), connectorId: checkId("connectorId", connectorId) };
    const op = this.op("configure");
    const fieldNames = (options.fieldIds ?? []).map((id) => `secretConfig.${id}`);
    const answer = await this.call("configure", {
      params,
      body: configureBodyOf(op, body),
      secretBody: true,
      fieldNames,
    });
    if (isSilent(op, answer.json, ["secretConfig", "configuration", "configured"])) {
      // The answer says nothing of what was saved: the configuration read back must say it.
      const view = await this.getConfiguration(accountId, connectorId);
      if (!view.configured) {
        throw new ResponseFormatError({
          ...answer.ctx,
          problem: `the answer (${describeShape(answer.json)}) says nothing of what was saved, and the configuration read back is not configured`,
        });
      }
      return { view, retried: answer.retried };
    }
    return {
      view: readPayload(op, loose.ConnectorConfigurationView, answer.json, answer.ctx),
      retried: answer.retried,
    };
  }

  /**
   * Remove Connector: 409 (ConflictError, with the counts when the service gives them) while it
   * is used in connections. Any success body will do: the status says it.
   */
  async removeConnector(accountId: string, connectorId: string): Promise<void> {
    const params = { accountId: checkAccountId(accountId), connectorId: checkId("connectorId", connectorId) };
    await this.call("removeConnector", { params });
  }

  private list<T extends z.ZodType>(
    operation: OperationName,
    item: T,
    params: CallParts["params"],
    options: PaginateOptions = {},
  ): AsyncIterable<z.infer<T>> {
    return listOf(this.op(operation), item, params, (parts) => this.call(operation, parts), this.settings, options);
  }

  /** A next-page link, as a target of this service (listing.ts). */
  private linkTarget(link: string, label: string): string {
    return linkTargetOf(link, this.settings.url, label);
  }

  private async fetchToken(): Promise<IssuedToken> {
    const { clientId, clientSecret } = this.settings;
    const answer = await this.call("getToken", { body: { clientId, clientSecret }, secretBody: true }).catch(
      (error: unknown) => {
        throw credentialsRefused(error);
      },
    );
    const token = parseToken(answer.json, answer.ctx);
    return { accessToken: token.accessToken, expirySeconds: token.expiry };
  }

  private headers(token: string | undefined, hasBody: boolean): Record<string, string> {
    return {
      accept: "application/json",
      "user-agent": USER_AGENT,
      ...(hasBody ? { "content-type": "application/json" } : {}),
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    };
  }

  /** One operation, with its retries. Token failures end the call (they had their own retries). */
  private async call(operation: OperationName, parts: CallParts): Promise<Answer> {
    const route = this.op(operation);
    const label = `${route.method} ${route.path}`;
    const target = parts.link
      ? this.linkTarget(parts.link, label)
      : targetOf(route, this.settings.url.basePath, parts.params, parts.raw);
    const body = parts.body === undefined ? undefined : JSON.stringify(parts.body);
    // What every error of this call may show, decided once (service-text.ts): the service may
    // quote what it was sent, in any form, in a refusal of any form.
    const sent = sentRequestOf({
      body: parts.body,
      secretBody: parts.secretBody,
      // A next-page link's query is the service's own text, not keys this client chose.
      otherKeys: [...(parts.link ? [] : queryKeysOf(target)), ...(parts.fieldNames ?? [])],
      secrets: [this.settings.clientSecret],
    });
    const started = this.now();
    let attempt = 0;
    let waits = 0;
    let waitedMs = 0;
    let renewed = false;
    let retried = false;
    for (;;) {
      const token = route.authenticated ? await this.tokens.get() : undefined;
      attempt++;
      const request = {
        method: route.method,
        target,
        headers: this.headers(token, body !== undefined),
        body,
        route: label,
        requestId: newRequestId(),
      };
      try {
        const queuedAt = this.now();
        const answered = await this.limiter.run(() => {
          // Time held back by the limiter (another call's 429 pause) is waiting, not trying.
          waitedMs += this.now() - queuedAt;
          this.requests++;
          return this.transport.send(request);
        });
        const attemptSent = hidingAlso(sent, token);
        // The service's x-request-id may quote what it was sent: every error shows it only when safe.
        const requestId = shownRequestId(answered.requestId, request.requestId, attemptSent);
        const response = { ...answered, requestId };
        const emptyOk = route.success === "empty" || SILENT_OK.has(operation);
        const json = decodeResponse(response, label, { sent: attemptSent, now: this.now(), emptyOk, target });
        // Every error later built from this answer (its payload read, its shape refused) gets `sent` too.
        const ctx = { route: label, requestId: response.requestId, status: response.status, sent: attemptSent };
        // An error status inside a 2xx body is that error (retried, renewed, reported alike).
        const inBody = errorInBody(route, json, ctx);
        if (inBody) throw inBody;
        return { json, ctx, retried, bytes: response.body.length };
      } catch (error) {
        if (error instanceof AuthenticationError && token !== undefined && !renewed) {
          // Expired or revoked token: refused before any processing, so renew once and repeat for free.
          renewed = true;
          this.tokens.invalidate(token);
          attempt--;
          continue;
        }
        const waiting = waitsForService(error);
        const elapsedMs = this.now() - started;
        const decision = shouldRetry({
          error,
          attempt: attempt - waits - (waiting ? 1 : 0),
          waits,
          elapsedMs,
          waitedMs,
          retrySafe: route.retrySafe,
          policy: this.settings.retry,
          random: this.random,
        });
        if (!decision.retry) {
          const final = waiting
            ? gaveUpWaiting(error, elapsedMs, waits + 1, this.settings.retry.retryTimeoutMs)
            : route.retrySafe
              ? gaveUpRetrying(error, attempt - waits, this.settings.retry.maxAttempts - 1, decision.reason)
              : error;
          if (final instanceof EmbeddedApiError && retried) final.earlierAttemptUnanswered = true;
          throw final;
        }
        // The service's limit is per client: every call of the process waits, not only this one
        // (for as long as this call will wait, which the retry timeout bounds).
        if (waiting) this.limiter.pause(decision.delayMs);
        // No answer or a 5xx may hide a processed attempt; a 429 was refused before any processing.
        if (error instanceof NetworkError || error instanceof ServerError) retried = true;
        if (waiting) {
          waits++;
          waitedMs += decision.delayMs;
        }
        await this.sleep(decision.delayMs);
      }
    }
  }
}

/** Operations whose success answer need say nothing (docs/service-contract.md, "Assumption register"). */
const SILENT_OK = new Set<OperationName>(["addConnectors", "configure", "removeConnector"]);
