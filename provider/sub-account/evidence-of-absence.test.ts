// A connector or a configuration leaves the state only
// on a direct answer about it or a list proven complete. Each test drives the resources'
// read (refresh), the Add confirmation or the fleet's fast drift path against the local service
// made to answer otherwise (a rewriting client, or a profile whose list route is wrong).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OutgoingRequest } from "../client";
import * as added from "../added-connector/steps";
import * as configuration from "../connector-configuration/steps";
import { runtime, useHost } from "../runtime/runtime";
import { runFastDrift } from "../../cli/fleet/drift/fast";
import { ADDED_CONNECTOR, CONNECTOR_CONFIGURATION } from "../../cli/fleet/drift/plan";
import { CATALOGUE } from "../../service/seed/catalogue";
import { rejection, useConfig, useProviderFixture } from "../../test/support/provider-fixtures";
import { closeRewritingClients, rewritingClient, withJson } from "../../test/support/rewriting-client";

type Props = Record<string, unknown>;
const isListAdded = (request: OutgoingRequest) =>
  request.method === "GET" && request.target.startsWith("/es/v2/connectors/added");
const DOCTOR = /pulumi-embedded-connectors doctor/;

/** The request with one query entry set (the service then reads it so). */
function withQuery(request: OutgoingRequest, key: string, value: string): OutgoingRequest {
  const [path, search = ""] = request.target.split("?");
  const query = new URLSearchParams(search);
  query.set(key, value);
  return { ...request, target: `${path}?${query.toString()}` };
}

describe("provider: the evidence of absence", () => {
  const fx = useProviderFixture();
  after(closeRewritingClients);
  const ids = CATALOGUE.slice(50, 55).map((c) => c.connectorId);

  it("refresh on a service that caps its pages at 2 but echoes the size asked keeps every connector", async () => {
    await fx.client.addConnectors(fx.accountId, ids);
    const asked = new Map<string, string>();
    useConfig(
      fx,
      {},
      rewritingClient(
        fx,
        (request, response) =>
          isListAdded(request)
            ? withJson(response, (json) => {
                const page = json.response as Props;
                return { ...json, response: { ...page, pageSize: Number(asked.get(request.requestId)) } };
              })
            : response,
        (request) => {
          if (!isListAdded(request)) return request;
          asked.set(request.requestId, new URLSearchParams(request.target.split("?")[1]).get("pageSize") ?? "");
          return withQuery(request, "pageSize", "2");
        },
      ),
    );
    for (const connectorId of ids) {
      const read = await added.read(`${fx.accountId}/${connectorId}`, { connectorId, accountId: fx.accountId });
      assert.equal(read.id, `${fx.accountId}/${connectorId}`, `connector ${connectorId} kept`);
    }
  });

  for (const [form, status] of [
    ["as an HTTP status", 404],
    ["inside a 200", 200],
  ] as const) {
    it(`a List Added Connectors that answers 404 ${form}: the reads fail naming the route and doctor, nothing dropped`, async () => {
      await fx.client.addConnectors(fx.accountId, [ids[0]]);
      useConfig(
        fx,
        {},
        rewritingClient(fx, (request, response) =>
          isListAdded(request)
            ? withJson({ ...response, status }, () => ({ statusCode: 404, statusMessage: "Not Found", response: null }))
            : response,
        ),
      );
      const id = `${fx.accountId}/${ids[0]}`;
      for (const read of [
        configuration.read(id, {}),
        added.read(id, { connectorId: ids[0], accountId: fx.accountId }),
      ]) {
        const error = await rejection(read);
        assert.match(error.message, /GET \/es\/v2\/connectors\/added: .*the list route answered 404/);
        assert.match(error.message, DOCTOR);
      }
    });
  }

  it("the Add confirmation names the listing's paging refusal, never 'not in the added list'", async () => {
    useConfig(
      fx,
      {},
      rewritingClient(
        fx,
        (request, response) =>
          request.method === "POST" && request.target.startsWith("/es/v2/connectors?")
            ? withJson(response, () => undefined) // an Add that says nothing of what it added
            : response,
        // Pages of 2 whatever is asked, and always the first: the paging is ignored.
        (request) => (isListAdded(request) ? withQuery(withQuery(request, "page", "1"), "pageSize", "2") : request),
      ),
    );
    await fx.client.addConnectors(fx.accountId, ids.slice(2, 4)); // the baseline: one full page, its total reached
    const error = await rejection(added.create({ connectorId: ids[1], accountId: fx.accountId }));
    assert.match(error.message, /the outcome of adding connector \S+ to sub-account \S+ is unknown/);
    assert.match(error.message, /reading the sub-account's added list to tell failed: GET \/es\/v2\/connectors\/added/);
    assert.match(error.message, /repeats items already read/);
    assert.match(error.message, DOCTOR);
    assert.doesNotMatch(error.message, /is not in the sub-account's added list/);
  });
});

describe("fleet fast drift: a list it cannot prove makes the stack failed, never a delete", () => {
  const fx = useProviderFixture();
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "absence-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("a List Added Connectors route that answers 404", async () => {
    const [connectorId] = CATALOGUE.slice(60, 61).map((c) => c.connectorId);
    await fx.client.addConnectors(fx.accountId, [connectorId]);
    const profile = join(dir, "wrong-list.yaml");
    writeFileSync(profile, "operations:\n  listAddedConnectors: { path: /es/v2/connectors/added-nowhere }\n");
    const settings = {
      baseUrl: fx.config["embedded:baseUrl"],
      clientId: fx.config["embedded:clientId"],
      clientSecret: fx.config["embedded:clientSecret"],
      accountId: fx.accountId,
      serviceProfile: profile,
    };
    const id = `${fx.accountId}/${connectorId}`;
    const resource = (type: string, name: string) => ({
      urn: `urn:pulumi:dev::p::${type}::${name}`,
      type,
      id,
      inputs: { connectorId, accountId: fx.accountId },
      outputs: { connectorId, accountId: fx.accountId },
    });
    const { host, warn } = runtime();
    try {
      const [report] = await runFastDrift({
        stacks: [
          {
            plan: {
              stack: "dev",
              providerInputs: settings,
              resources: [resource(CONNECTOR_CONFIGURATION, "config"), resource(ADDED_CONNECTOR, "added")],
              digestKeyIds: new Set(),
            },
            settings,
          },
        ],
        concurrency: 1,
        repairCommand: (stack) => `pulumi refresh --stack ${stack}`,
      });
      assert.equal(report?.status, "failed", JSON.stringify(report));
      assert.deepEqual(report?.resources, [], "no resource reported as deleted");
      assert.match(String(report?.error), /the list route answered 404/);
      assert.match(String(report?.error), DOCTOR);
    } finally {
      useHost(host, warn);
    }
  });
});
