// The fleet report from the engine's events: resources and property paths only (the events
// carry old and new values, which never reach a report), exit codes, Markdown and JUnit.
import { strict as assert } from "node:assert";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { renderJUnit, renderMarkdown, renderTable } from "../../cli/fleet/render";
import { buildReport, exitCodeOf, type StackReport } from "../../cli/fleet/report";
import { StepRecorder } from "../../cli/fleet/run";

const VALUE = "a-value-that-must-not-leak-7d1e";
const CONFIG = "urn:pulumi:acme-eu::embedded-fleet::embedded:index:ConnectorConfiguration::s3";
const ADDED = "urn:pulumi:acme-eu::embedded-fleet::embedded:index:AddedConnector::segment";

function pre(op: string, urn: string, extra: object = {}): EngineEvent {
  const type = urn.split("::")[2];
  const state = {
    type,
    urn,
    custom: true,
    delete: false,
    id: "x",
    parent: "",
    protect: false,
    dependencies: [],
    provider: "",
    retainOnDelete: false,
  };
  return {
    sequence: 1,
    timestamp: 1,
    resourcePreEvent: {
      metadata: {
        op,
        urn,
        type,
        provider: "",
        old: { ...state, inputs: { secretConfig: { bucket: VALUE } }, outputs: { values: { bucket: VALUE } } },
        new: { ...state, inputs: { secretConfig: { bucket: "other" } }, outputs: {} },
        ...extra,
      },
    },
  } as unknown as EngineEvent;
}

describe("cli: fleet report", () => {
  it("keeps each changed resource with its property paths from the engine's diff, never a value", () => {
    const recorder = new StepRecorder();
    recorder.onEvent(pre("refresh", CONFIG));
    recorder.onEvent(pre("same", "urn:pulumi:acme-eu::embedded-fleet::pulumi:pulumi:Stack::embedded-fleet-acme-eu"));
    recorder.onEvent(
      pre("update", CONFIG, {
        diffs: ["secretConfig"],
        detailedDiff: {
          "secretConfig.bucket": { kind: "update", inputDiff: true },
          "secretConfig.region": { kind: "update", inputDiff: true },
        },
      }),
    );
    recorder.onEvent(pre("create", ADDED));
    recorder.onEvent(
      pre("update", "urn:pulumi:acme-eu::embedded-fleet::pulumi:providers:embedded::acme", { diffs: ["clientSecret"] }),
    );
    const changes = recorder.changes();
    assert.deepEqual(changes, [
      { urn: ADDED, type: "embedded:index:AddedConnector", name: "segment", operation: "create", properties: [] },
      {
        urn: CONFIG,
        type: "embedded:index:ConnectorConfiguration",
        name: "s3",
        operation: "update",
        properties: ["secretConfig.bucket", "secretConfig.region"],
      },
    ]);
    assert.ok(!JSON.stringify(changes).includes(VALUE));
  });

  it("falls back to the diff's keys, and a replacement stays a replacement", () => {
    const recorder = new StepRecorder();
    recorder.onEvent(pre("update", CONFIG, { diffs: ["values"] }));
    recorder.onEvent(pre("create-replacement", ADDED, { diffs: ["connectorId"] }));
    recorder.onEvent(pre("delete-replaced", ADDED));
    assert.deepEqual(
      recorder.changes().map((c) => [c.name, c.operation, c.properties]),
      [
        ["segment", "replace", ["connectorId"]],
        ["s3", "update", ["values"]],
      ],
    );
  });

  const clean: StackReport = { stack: "a", status: "clean", durationMs: 1000, resources: [] };
  const drifted: StackReport = {
    stack: "b|c",
    status: "drifted",
    durationMs: 2000,
    resources: [
      {
        urn: CONFIG,
        type: "embedded:index:ConnectorConfiguration",
        name: "s3",
        operation: "update",
        properties: ["secretConfig.bucket"],
      },
    ],
    repair: "pulumi-embedded-connectors fleet up --stacks b|c",
  };
  const failed: StackReport = {
    stack: "d",
    status: "failed",
    durationMs: 10,
    resources: [],
    error: "error: <boom> & \u0001more",
  };

  it("exit codes: 0 clean, 2 drift (drift only), 1 failure (over drift)", () => {
    assert.equal(exitCodeOf("drift", [clean]), 0);
    assert.equal(exitCodeOf("drift", [clean, drifted]), 2);
    assert.equal(exitCodeOf("drift", [drifted, failed]), 1);
    assert.equal(exitCodeOf("preview", [{ ...drifted, status: "changed" }]), 0);
    assert.equal(exitCodeOf("up", [failed]), 1);
  });

  it("Markdown names the drifted stack, resource, property and repair; JUnit has a failure per drifted or failed stack", () => {
    const report = buildReport("drift", "embedded-fleet", "every stack", new Date(), [failed, drifted, clean]);
    assert.deepEqual(
      report.stacks.map((s) => s.stack),
      ["a", "b|c", "d"],
    );
    assert.deepEqual(report.summary, { stacks: 3, clean: 1, drifted: 1, changed: 0, failed: 1 });
    const md = renderMarkdown(report);
    assert.match(
      md,
      /\| b\\\|c \| ⚠️ drifted \| s3 \| `embedded:index:ConnectorConfiguration` \| update \| `secretConfig.bucket` \|/,
    );
    assert.ok(md.includes("```sh\npulumi-embedded-connectors fleet up --stacks b|c\n```"));
    assert.ok(md.includes("<details><summary>d: failed</summary>"));
    const junit = renderJUnit(report);
    assert.equal((junit.match(/<testcase /g) ?? []).length, 3);
    assert.equal((junit.match(/<failure /g) ?? []).length, 2);
    assert.ok(junit.includes('failures="2"'));
    assert.ok(junit.includes("error: &lt;boom&gt; &amp; more"), "escaped, control characters dropped");
    assert.ok(
      junit.includes(
        "update urn:pulumi:acme-eu::embedded-fleet::embedded:index:ConnectorConfiguration::s3: secretConfig.bucket",
      ),
    );
  });

  it("the terminal's table: a row per drifted resource and per failed stack, aligned, cut to the width", () => {
    const report = buildReport("drift", "embedded-fleet", "every stack", new Date(), [failed, drifted, clean]);
    assert.equal(
      renderTable(report),
      [
        "STACK  STATUS   RESOURCE  CHANGE  PROPERTIES",
        "b|c    drifted  s3        update  secretConfig.bucket",
        "d      failed                     error: <boom> & more",
        "",
      ].join("\n"),
      "the clean stack has no row; a control character in a message is not written to the terminal",
    );
    const narrow = renderTable(report, 30).split("\n").slice(0, -1);
    assert.ok(
      narrow.every((line) => [...line].length <= 30),
      narrow.join("\n"),
    );
    assert.equal(narrow[1], "b|c    drifted  s3        upd…");
    assert.equal(renderTable(buildReport("drift", "p", "every stack", new Date(), [clean])), "", "all clean: no table");
  });
});
