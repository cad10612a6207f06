// A lookup's refusal names the lookup and its given arguments (never a value), whichever host runs it.
import assert from "node:assert/strict";
import { findConnector, getConnector } from "./lookups";
import { rejection, useProviderFixture } from "../../test/support/provider-fixtures";
import { currentClient, accountIdFor } from "../runtime/runtime";

describe("lookups: a refusal names the lookup, its arguments and what to do", () => {
  const fx = useProviderFixture();
  const ctx = () => ({ client: currentClient().client, accountId: accountIdFor });

  it("findConnector with a typo: the lookup, the arguments' names, the sub-account and the near match", async () => {
    const error = await rejection(findConnector(ctx(), { name: "Segmnet", supportedType: "Source" }));
    assert.ok(error.message.startsWith("findConnector(name, supportedType): no connector named "), error.message);
    for (const part of [fx.accountId, 'near matches: "Segment"', "listConnectors lists them"])
      assert.ok(error.message.includes(part), `${part} in ${error.message}`);
  });

  it("getConnector of an id not in the catalogue: the lookup, the id and the request id", async () => {
    const error = await rejection(getConnector(ctx(), { connectorId: "0000000000000000", accountId: fx.accountId }));
    assert.ok(error.message.startsWith("getConnector(connectorId, accountId): "), error.message);
    assert.match(error.message, /0000000000000000/);
    assert.match(error.message, /request id \S+/);
  });

  it("a bug keeps its own message", async () => {
    const error = await rejection(
      findConnector({ client: undefined as never, accountId: accountIdFor }, { name: "x", supportedType: "Source" }),
    );
    assert.ok(error instanceof TypeError && !error.message.startsWith("findConnector"), error.message);
  });
});
