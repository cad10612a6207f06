// The fleet report from the engine's events: resources and property paths only (the events
// carry old and new values, which never reach a report), exit codes, Markdown and JUnit.
import { strict as assert } from "node:assert";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { renderJUnit, renderMarkdown, renderTable } from "./render";
import { buildReport, describeStack, exitCodeOf, stackStatus, type StackReport } from "./report";
import { StepRecorder } from "./run";

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
      {
        urn: "urn:pulumi:acme-eu::embedded-fleet::pulumi:providers:embedded::acme",
        type: "pulumi:providers:embedded",
        name: "acme",
        operation: "update",
        properties: ["clientSecret"],
        providerStep: true,
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

  it("a renamed provider (a create and a delete, its resources the same) changes the stack, in every report; a provider's same or read does not", () => {
    const provider = (name: string) => `urn:pulumi:acme-eu::embedded-fleet::pulumi:providers:embedded::${name}`;
    const recorder = new StepRecorder();
    // The routine steps of a provider left as it was: nothing to report.
    recorder.onEvent(pre("same", provider("default_0_1_0")));
    recorder.onEvent(pre("read", provider("default_0_1_0")));
    recorder.onEvent(pre("refresh", provider("globex")));
    recorder.onEvent(pre("same", provider("globex")));
    assert.deepEqual(recorder.changes(), [], "a provider's same, read or refresh is no change");
    assert.equal(stackStatus("preview", recorder.changes()), "clean");
    // `acme` renamed `acme-eu` with the same settings: the engine keeps the resources under it.
    recorder.onEvent(pre("create", provider("acme-eu")));
    recorder.onEvent(pre("same", CONFIG));
    recorder.onEvent(pre("same", ADDED));
    recorder.onEvent(pre("delete", provider("acme")));
    const resources = recorder.changes();
    assert.deepEqual(
      resources.map((r) => [r.name, r.operation, r.providerStep]),
      [
        ["acme", "delete", true],
        ["acme-eu", "create", true],
      ],
    );
    const status = stackStatus("preview", resources);
    assert.equal(status, "changed", "the stack is not clean");
    const stack: StackReport = { stack: "acme-eu", status, durationMs: 1200, resources };
    const report = buildReport("preview", "embedded-fleet", "every stack", new Date(), [stack]);
    assert.deepEqual(report.summary, {
      stacks: 1,
      violations: 0,
      clean: 0,
      drifted: 0,
      changed: 1,
      failed: 0,
      acknowledged: 0,
      unmanaged: 0,
    });
    assert.equal(describeStack(stack), "changed (1.2 s): provider acme delete; provider acme-eu create");
    assert.equal(
      renderTable(report),
      [
        "STACK    STATUS   TYPE      RESOURCE            CHANGE  PROPERTIES",
        "acme-eu  changed  provider  acme (provider)     delete",
        "acme-eu  changed  provider  acme-eu (provider)  create",
        "",
      ].join("\n"),
    );
    const md = renderMarkdown(report);
    assert.match(
      md,
      /\| acme-eu \| {2}\| 📝 changed \| acme-eu \(provider\) \| `pulumi:providers:embedded` \| create \| {2}\|/,
    );
    assert.match(
      md,
      /\| acme-eu \| {2}\| 📝 changed \| acme \(provider\) \| `pulumi:providers:embedded` \| delete \| {2}\|/,
    );
    assert.doesNotMatch(md, /Nothing to change/);
    const junit = renderJUnit(report);
    assert.equal((junit.match(/<failure /g) ?? []).length, 0, "a change is no failure");
    assert.ok(
      junit.includes(
        `<system-out>delete ${provider("acme")} (provider)\ncreate ${provider("acme-eu")} (provider)</system-out>`,
      ),
      junit,
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
    assert.deepEqual(report.summary, {
      stacks: 3,
      violations: 0,
      clean: 1,
      drifted: 1,
      changed: 0,
      failed: 1,
      acknowledged: 0,
      unmanaged: 0,
    });
    const md = renderMarkdown(report);
    assert.match(
      md,
      /\| b\\\|c \| {2}\| ⚠️ drifted \| s3 \| `embedded:index:ConnectorConfiguration` \| update \| `secretConfig.bucket` \|/,
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
        "STACK  STATUS   TYPE                    RESOURCE  CHANGE  PROPERTIES",
        "b|c    drifted  ConnectorConfiguration  s3        update  secretConfig.bucket",
        "d      failed                                             error: <boom> & more",
        "",
      ].join("\n"),
      "the clean stack has no row; a control character in a message is not written to the terminal",
    );
    const narrow = renderTable(report, 30).split("\n").slice(0, -1);
    assert.ok(
      narrow.every((line) => [...line].length <= 30),
      narrow.join("\n"),
    );
    assert.equal(narrow[1], "b|c    drifted  ConnectorConf…");
    assert.equal(renderTable(buildReport("drift", "p", "every stack", new Date(), [clean])), "", "all clean: no table");
  });

  it("policy violations: kept from the engine's policy events, counted, and shown in every report", () => {
    const recorder = new StepRecorder();
    const policyEvent = (level: "mandatory" | "warning", policy: string, message: string): EngineEvent => ({
      sequence: 2,
      timestamp: 2,
      policyEvent: {
        resourceUrn: CONFIG,
        message,
        color: "never",
        policyName: policy,
        policyPackName: "embedded-connectors",
        policyPackVersion: "0.1.0",
        policyPackVersionTag: "0.1.0",
        enforcementLevel: level,
      },
    });
    recorder.onEvent(policyEvent("mandatory", "embedded-passwords-from-secrets", 'secretConfig "password" in plain'));
    recorder.onEvent(policyEvent("mandatory", "embedded-passwords-from-secrets", 'secretConfig "password" in plain'));
    recorder.onEvent(policyEvent("warning", "embedded-required-secret-config", 'secretConfig lacks "bucket"'));
    assert.deepEqual(
      recorder.violations.map((v) => [v.policy, v.level, v.resource]),
      [
        ["embedded-passwords-from-secrets", "mandatory", "s3"],
        ["embedded-required-secret-config", "advisory", "s3"],
      ],
      "one record per violation (the engine may repeat one), a warning named advisory",
    );
    const blocked: StackReport = {
      stack: "acme-eu",
      status: "failed",
      durationMs: 1,
      resources: [],
      error: "error: preview failed",
      violations: recorder.violations,
    };
    const advised: StackReport = { ...clean, stack: "acme-us", violations: [recorder.violations[1]] };
    const report = buildReport("preview", "embedded-fleet", "every stack", new Date(), [blocked, advised, clean]);
    assert.equal(report.summary.violations, 3);
    const md = renderMarkdown(report);
    assert.match(
      md,
      /\| acme-eu \| mandatory \| `embedded-passwords-from-secrets` \| s3 \| secretConfig "password" in plain \|/,
    );
    assert.match(md, /\| acme-us \| advisory \| `embedded-required-secret-config` \| s3 \|/);
    const table = renderTable(report);
    assert.match(table, /acme-eu +failed +s3 +policy mandatory +embedded-passwords-from-secrets: /);
    assert.match(table, /acme-us +clean +s3 +policy advisory/, "a clean stack with an advisory violation has its row");
    const junit = renderJUnit(report);
    assert.ok(
      junit.includes(
        "policy mandatory embedded-passwords-from-secrets (s3): secretConfig &quot;password&quot; in plain",
      ),
    );
    assert.match(junit, /<system-out>policy advisory embedded-required-secret-config \(s3\)/);
  });
});

describe("cli: fleet report, a connector's two resources", () => {
  it("the terminal's table names each resource's type (an AddedConnector and its configuration share a name)", () => {
    const both: StackReport = {
      stack: "acme-eu",
      status: "drifted",
      durationMs: 1,
      resources: [
        { urn: ADDED, type: "embedded:index:AddedConnector", name: "segment", operation: "delete", properties: [] },
        {
          urn: ADDED.replace("AddedConnector", "ConnectorConfiguration"),
          type: "embedded:index:ConnectorConfiguration",
          name: "segment",
          operation: "delete",
          properties: [],
        },
      ],
    };
    const rows = renderTable(buildReport("drift", "p", "every stack", new Date(), [both])).split("\n");
    assert.match(rows[1], /^acme-eu +drifted +AddedConnector +segment +delete/);
    assert.match(rows[2], /^acme-eu +drifted +ConnectorConfiguration +segment +delete/);
  });
});
