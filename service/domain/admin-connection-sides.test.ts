// Admin connections must join a Source to a Destination: not a connector to itself,
// not two sources or two destinations.
import assert from "node:assert/strict";
import { byName, expectEnvelope, harness, q, type Harness } from "../../test/support/service";

const fb = byName("Facebook Custom Audiences"); // Destination
const sf = byName("Salesforce CRM"); // Source
const hubspot = byName("HubSpot CRM"); // Source
const mailchimp = byName("Mailchimp"); // Destination

describe("service: admin connections join a Source to a Destination", () => {
  let h: Harness;
  before(async () => {
    h = await harness();
    const ids = [fb, sf, hubspot, mailchimp].map((c) => c.connectorId);
    expectEnvelope(await h.call("POST", `/es/v2/connectors${q(h.account)}`, { payload: { connectorIds: ids } }), 200);
  });
  after(() => h.close());

  const connect = (source: string, destination: string) =>
    h.admin("POST", "/_admin/connections", {
      accountId: h.account,
      sourceConnectorId: source,
      destinationConnectorId: destination,
    });

  it("refuses a connection whose source and destination are the same connector", async () => {
    expectEnvelope(await connect(sf.connectorId, sf.connectorId), 400, /two different connectors/);
  });

  it("refuses a Destination as source and a Source as destination, naming the side", async () => {
    expectEnvelope(
      await connect(fb.connectorId, mailchimp.connectorId),
      400,
      /sourceConnectorId .* is a Destination connector/,
    );
    expectEnvelope(
      await connect(sf.connectorId, hubspot.connectorId),
      400,
      /destinationConnectorId .* is a Source connector/,
    );
    expectEnvelope(await connect(fb.connectorId, sf.connectorId), 400, /source must have supportedType Source/);
  });

  it("counts nothing for the refused connections, and accepts Source → Destination", async () => {
    const list = expectEnvelope<{ items: { connectorId: string; srcConnections: number; destConnections: number }[] }>(
      await h.call("GET", `/es/v2/connectors/added${q(h.account)}`),
      200,
    );
    assert.ok(list.response.items.every((i) => i.srcConnections === 0 && i.destConnections === 0));
    const created = expectEnvelope<{ connectionId: string }>(await connect(sf.connectorId, fb.connectorId), 200);
    assert.match(created.response.connectionId, /^[0-9a-f]{16}$/);
  });
});
