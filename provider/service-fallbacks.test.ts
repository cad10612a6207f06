// A fallback for each semantic assumption of the contract (docs/service-contract.md, "Assumption
// register"), each against the local service made to behave otherwise by a rewriting client.
// Each test fails with its fallback removed (checked when written; see the register).
import assert from "node:assert/strict";
import type { EmbeddedClient } from "./client";
import { findConnector } from "./lookups/lookups";
import * as added from "./added-connector/steps";
import * as configuration from "./connector-configuration/steps";
import { CATALOGUE } from "../service/seed/catalogue";
import {
  captureWarnings,
  CONNECTORS,
  rejection,
  SEGMENT_CONFIG,
  useConfig,
  useProviderFixture,
} from "../test/support/provider-fixtures";
import { closeRewritingClients, rewritingClient, withJson } from "../test/support/rewriting-client";

type Props = Record<string, unknown>;
const isAdd = (method: string, target: string) => method === "POST" && /\/connectors\?/.test(target);
const isConfiguration = (target: string) => /\/connectors\/[A-Za-z0-9]+\/configuration\?/.test(target);

describe("provider fallbacks: the service behaving otherwise than the contract", () => {
  const fx = useProviderFixture();
  after(closeRewritingClients);

  it("Add without alreadyAdded (no success body): a listing tells ours from one already there", async () => {
    useConfig(
      fx,
      {},
      rewritingClient(fx, (request, response) =>
        isAdd(request.method, request.target) && response.status === 200
          ? withJson(response, () => undefined)
          : response,
      ),
    );
    const [foreign, mine] = CATALOGUE.slice(40, 42).map((c) => c.connectorId);
    await fx.client.addConnectors(fx.accountId, [foreign]);
    const error = await rejection(added.create({ connectorId: foreign, accountId: fx.accountId }));
    assert.match(
      error.message,
      new RegExp(`\\(${foreign}\\) is already added to sub-account ${fx.accountId}, outside this resource`),
    );
    const created = await added.create({ connectorId: mine, accountId: fx.accountId });
    assert.equal(created.outs.connectorId, mine);
    assert.equal(typeof created.outs.name, "string", "the view comes from the listing");
  });

  it("Get Configuration 404 before add: preview passes and says so once; the fields are checked at create", async () => {
    const addedIds = new Set<string>();
    useConfig(
      fx,
      {},
      rewritingClient(fx, (request, response) => {
        if (isAdd(request.method, request.target) && response.status === 200) {
          for (const id of (JSON.parse(request.body ?? "{}") as { connectorIds: string[] }).connectorIds)
            addedIds.add(id);
        }
        const id = /\/connectors\/([A-Za-z0-9]+)\/configuration/.exec(request.target)?.[1];
        if (request.method === "GET" && id !== undefined && !addedIds.has(id)) {
          return withJson({ ...response, status: 404 }, () => ({
            statusCode: 404,
            statusMessage: "Not Found",
            response: null,
          }));
        }
        return response;
      }),
    );
    const warnings = captureWarnings();
    const news = (secretConfig: Props, connectorId: string = CONNECTORS.segment) => ({
      connectorId,
      accountId: fx.accountId,
      secretConfig,
      __provider: "p",
    });
    assert.deepEqual((await configuration.check({}, news({ ...SEGMENT_CONFIG, colour: "blue" }))).failures, []);
    assert.deepEqual((await configuration.check({}, news(SEGMENT_CONFIG, CONNECTORS.amplitude))).failures, []);
    assert.equal(warnings.length, 1, `said once: ${warnings.join(" | ")}`);
    assert.match(warnings[0], /404 for a connector not yet added: .* checked when it is created/);
    // A connector the catalogue does not have is still refused in preview.
    const unknown = await configuration.check({}, news(SEGMENT_CONFIG, "ZZZZZZZZZZZZZZZZ"));
    assert.match(String(unknown.failures?.[0]?.reason), /there is no connector ZZZZZZZZZZZZZZZZ in the catalogue/);

    await added.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId });
    const refused = await rejection(configuration.create(news({ ...SEGMENT_CONFIG, colour: "blue" })));
    assert.match(refused.message, /does not fit its fields: secretConfig\.colour: connector \S+ has no field "colour"/);
    const created = await configuration.create(news(SEGMENT_CONFIG));
    assert.equal((created.outs as Props).configured, true);
  });

  for (const [what, lastUpdated] of [
    ["without lastUpdated", undefined],
    ["with a lastUpdated that never moves", 1_700_000_000],
  ] as const) {
    it(`drift ${what}: told by the field digests alone, naming the Password blind spot`, async () => {
      const strip = (view: Props) => {
        const set = (o: Props) => (lastUpdated === undefined ? delete o.lastUpdated : (o.lastUpdated = lastUpdated));
        set(view);
        for (const secret of (view.secretConfig as Props[] | undefined) ?? []) set(secret);
      };
      useConfig(
        fx,
        {},
        rewritingClient(fx, (request, response) =>
          isConfiguration(request.target) && response.status === 200
            ? withJson(response, (json) => (strip(json.response as Props), json))
            : response,
        ),
      );
      await fx.client.addConnectors(fx.accountId, [CONNECTORS.segment]);
      const inputs = { connectorId: CONNECTORS.segment, accountId: fx.accountId, secretConfig: SEGMENT_CONFIG };
      const { id, outs } = await configuration.create(inputs);
      assert.equal(((await configuration.read(id, outs as Props)).props as Props).drift, "", "clean right after up");
      await fx.client.configure(fx.accountId, CONNECTORS.segment, {
        configurationId: String((outs as Props).configurationId),
        secretConfig: { ...SEGMENT_CONFIG, workspace: "someone-else" },
      });
      const drift = String(((await configuration.read(id, outs as Props)).props as Props).drift);
      assert.match(drift, /^changed out of band: workspace \(.*a change to a Password field cannot be seen\)$/);
      assert.ok(!drift.includes("someone-else"), "no value");
    });
  }

  it("a 409 without counts: the added view's counts make the delete guard's message", async () => {
    useConfig(
      fx,
      {},
      rewritingClient(fx, (request, response) =>
        request.method === "DELETE" && response.status === 409
          ? withJson(response, (json) => ({ ...json, response: null }))
          : response,
      ),
    );
    const { id, outs } = await added.create({ connectorId: CONNECTORS.segment, accountId: fx.accountId });
    await fx.client.addConnectors(fx.accountId, [CONNECTORS.tiktokEvents]);
    await fx.service.createConnection(fx.accountId, CONNECTORS.segment, CONNECTORS.tiktokEvents);
    const error = await rejection(added.remove(id, outs));
    assert.ok(
      error.message.startsWith(added.inUseMessage("Segment", CONNECTORS.segment, fx.accountId, 1, 0)),
      error.message,
    );
    assert.match(error.message, /retainOnDelete: true/);
  });
});

describe("lookups: a supportedType of the service's own", () => {
  it("findConnector keeps a connector the service lists under the filter with its own value, not one of the other side", async () => {
    const listed = [
      { name: "Both Ways", supportedType: "Source and Destination", connectorId: "b0b0b0b0b0b0b0b0" },
      { name: "Both Ways", supportedType: "Destination", connectorId: "d0d0d0d0d0d0d0d0" },
    ];
    const client = {
      listConnectors: async function* () {
        yield* listed;
      },
    } as unknown as EmbeddedClient;
    const found = await findConnector({ client, accountId: () => "a" }, { name: "Both Ways", supportedType: "Source" });
    assert.equal(found.connectorId, "b0b0b0b0b0b0b0b0");
  });
});
