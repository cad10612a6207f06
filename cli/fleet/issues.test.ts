// `fleet issues` against a loopback stand-in of the GitHub REST endpoints it calls (list issues
// by label, create, comment, update and close), over three nights of one fleet: a stack drifts
// (an issue opened), its drift changes (a comment), another stack's stays the same (nothing
// said), then it is clean (a comment, the issue closed). A stack of another shard, a failed stack
// and another label's issues are left alone. No value, and no canary of the engine's error, is
// ever sent; the token goes only in the Authorization header.
import { strict as assert } from "node:assert";
import { syncIssues } from "./issues";
import { buildReport, type FleetReport, type StackReport } from "./report";

import { gitHubStandIn, TOKEN } from "../../test/support/github-stand-in";

const CANARY = "canary-value-8d2e";

function stack(name: string, status: StackReport["status"], fields: string[] = []): StackReport {
  return {
    stack: name,
    status,
    durationMs: 1,
    resources: fields.length
      ? [
          {
            urn: `urn:pulumi:${name}::embedded-fleet::embedded:index:ConnectorConfiguration::s3`,
            type: "embedded:index:ConnectorConfiguration",
            name: "s3",
            operation: "update",
            properties: fields,
          },
        ]
      : [],
    ...(status === "drifted" ? { repair: `pulumi-embedded-connectors fleet up --stacks ${name}` } : {}),
    ...(status === "failed" ? { error: `could not read: ${CANARY}` } : {}),
  };
}

function report(stacks: StackReport[]): FleetReport {
  return buildReport("drift", "embedded-fleet", "shard 1/2", new Date(0), stacks);
}

/** `fleet issues` over one night's report, against the stand-in at `url`. */
function syncWith(url: string) {
  return (stacks: StackReport[]) =>
    syncIssues({ reports: [report(stacks)], repo: "acme/fleet", token: TOKEN, apiUrl: url, label: "fleet-drift" });
}

describe("fleet issues: one GitHub issue per drifted stack, against a loopback stand-in", () => {
  it("opens, comments when the drift changes, says nothing when it does not, closes when clean", async () => {
    const gh = await gitHubStandIn();
    try {
      // Issues of others: another label, a pull request, another shard's stack.
      gh.issues.push(
        {
          number: 1,
          title: "bug",
          body: "<!-- fleet-drift-stack: acme-eu -->",
          labels: ["bug"],
          state: "open",
          comments: [],
        },
        { number: 2, title: "pr", body: "", labels: ["fleet-drift"], state: "open", comments: [], pull_request: {} },
        {
          number: 3,
          title: "Drift: stack other-shard",
          body: "<!-- fleet-drift-stack: other-shard -->",
          labels: ["fleet-drift"],
          state: "open",
          comments: [],
        },
      );
      const sync = syncWith(gh.url);

      const night1 = await sync([
        stack("acme-eu", "drifted", ["fieldDigests.bucket"]),
        stack("globex", "drifted", ["values.region"]),
        stack("broken", "failed"),
      ]);
      assert.deepEqual(night1, ["acme-eu: drifted, opened #4", "globex: drifted, opened #5"]);
      const [acme, globex] = [gh.issues[3], gh.issues[4]];
      assert.equal(acme.title, "Drift: stack acme-eu");
      assert.deepEqual(acme.labels, ["fleet-drift"]);
      assert.match(acme.body, /`fieldDigests\.bucket`/);
      assert.match(acme.body, /fleet up --stacks acme-eu/);

      const night2 = await sync([
        stack("acme-eu", "drifted", ["fieldDigests.bucket", "lastUpdated"]),
        stack("globex", "drifted", ["values.region"]),
      ]);
      assert.deepEqual(night2, ["acme-eu: drift changed, commented on #4"]);
      assert.equal(acme.comments.length, 1);
      assert.match(acme.comments[0], /The drift changed[\s\S]*`lastUpdated`/);
      assert.equal(globex.comments.length, 0, "the same drift: nothing said");

      const night3 = await sync([stack("acme-eu", "clean"), stack("globex", "drifted", ["values.region"])]);
      assert.deepEqual(night3, ["acme-eu: clean, closed #4"]);
      assert.equal(acme.state, "closed");
      assert.match(acme.comments[1], /^Resolved: .*`acme-eu` clean/);
      assert.deepEqual(
        gh.issues.filter((i) => i.number <= 3).map((i) => [i.state, i.comments.length]),
        [
          ["open", 0],
          ["open", 0],
          ["open", 0],
        ],
        "other labels, pull requests and other shards' stacks untouched",
      );
      // The token only in its header; no value anywhere.
      for (const request of gh.sent) {
        assert.ok(!request.includes(CANARY), request);
        assert.equal(request.split(TOKEN).length, 2, `the token once, in the Authorization header: ${request}`);
      }
      assert.ok(gh.sent.every((r) => /^(GET|POST|PATCH) \/repos\/acme\/fleet\/issues/.test(r)));
    } finally {
      await gh.close();
    }
  });

  it("a connector no stack declares opens an issue naming it; all drift acknowledged closes it", async () => {
    const gh = await gitHubStandIn();
    try {
      const sync = syncWith(gh.url);
      const unmanaged: StackReport = {
        ...stack("initech", "unmanaged"),
        unmanaged: [{ accountId: "acc-1", connectorId: "c-hand", name: "Amazon S3" }],
      };
      assert.deepEqual(await sync([unmanaged]), ["initech: unmanaged, opened #1"]);
      assert.match(gh.issues[0].body, /`Amazon S3` \(`c-hand`\) \| unmanaged/);
      const notListed = { ...stack("initech", "clean"), discoveryNotRun: "sub-account acc-1: its listing failed" };
      assert.deepEqual(await sync([notListed]), [
        "initech: clean, #1 left open (its sub-account not listed: sub-account acc-1: its listing failed)",
      ]);
      assert.equal(gh.issues[0].state, "open", "a connector not listed this run is not gone");
      assert.deepEqual(await sync([stack("initech", "clean")]), [
        "initech: clean, #1 left open (its sub-account not listed: discovery was off (--no-discovery))",
      ]);
      assert.equal(gh.issues[0].state, "open", "a run with --no-discovery lists nothing");
      const listed = { ...stack("initech", "acknowledged"), unmanaged: [] };
      assert.deepEqual(await sync([listed]), ["initech: acknowledged, closed #1"]);
      assert.match(gh.issues[0].comments[0], /only acknowledged drift/);
    } finally {
      await gh.close();
    }
  });

  it("a stack in two reports (a shard run again) opens one issue", async () => {
    const gh = await gitHubStandIn();
    try {
      const drifted = [stack("initech", "drifted", ["fieldDigests.bucket"])];
      const done = await syncIssues({
        reports: [report(drifted), report(drifted)],
        repo: "acme/fleet",
        token: TOKEN,
        apiUrl: gh.url,
        label: "fleet-drift",
      });
      assert.deepEqual(done, ["initech: drifted, opened #1"]);
      assert.equal(gh.issues.length, 1);
    } finally {
      await gh.close();
    }
  });

  it("a refusal of the API is an error naming the call and the permission, never the token", async () => {
    const gh = await gitHubStandIn();
    try {
      await assert.rejects(
        syncIssues({
          reports: [report([])],
          repo: "acme/fleet",
          token: "wrong-token-123",
          apiUrl: gh.url,
          label: "fleet-drift",
        }),
        (e: Error) =>
          /GitHub GET \/repos\/acme\/fleet\/issues answered 401: .*Bad credentials.*issues: write.*request id CAFE:401:1/.test(
            e.message,
          ) && !e.message.includes("wrong-token-123"),
      );
    } finally {
      await gh.close();
    }
  });
});
