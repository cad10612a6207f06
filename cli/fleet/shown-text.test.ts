// A backend URL with a password the engine cannot open: the engine's error quotes it whole, and
// the fleet copies that error (and the fast path's reason naming the backend) into every report
// it writes. None of them — JSON, Markdown, JUnit, the terminal table, the progress line, the
// command's own error — shows the password, whatever it holds (an `@` included).
import { strict as assert } from "node:assert";
import fc from "fast-check";
import { renderJUnit, renderMarkdown, renderTable } from "./render";
import { renderDriftNotes } from "./drift/render-drift";
import { buildReport, describeStack, type StackReport } from "./report";
import { knowBackendOf, shownText } from "./shown-text";
import { adoptLine } from "./adopt";
import { printSeedOnFailure, PROPERTY_SEED, propertyRuns } from "../../test/support/seed";

const CHARS = "abcXYZ019@:/?#&=+!$*,;~-._%|<>".split("");
const password = fc
  .string({ unit: fc.constantFrom(...CHARS), minLength: 8, maxLength: 24 })
  .filter((p) => /[a-z0-9]{3}/i.test(p) && !/[=&;,(][a-z0-9+.-]*:\/\//i.test(p));

/** The forms a report could carry a password in: as is, XML- and Markdown-escaped, percent-encoded. */
function forms(secret: string): string[] {
  const xml = secret.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return [secret, xml, secret.replace(/\|/g, "\\|"), encodeURIComponent(secret)];
}

function failedStack(url: string): StackReport {
  return {
    stack: "acme-eu",
    status: "failed",
    durationMs: 10,
    resources: [],
    error: `error: could not open the backend "${url}": dial tcp 127.0.0.1:1: connect: connection refused`,
    checkedBy: "engine",
    engineBecause: `the backend ${url} is not one the fast path reads (file://, s3://, azblob://, gs://)`,
    violations: [
      { policy: "team-rule", pack: "team", level: "mandatory", resource: "s3", message: `cannot reach ${url}` },
    ],
    discoveryNotRun: `sub-account a1: its listing failed: proxy ${url} refused`,
  };
}

describe("fleet: what a report shows of an engine's text quoting a backend URL", () => {
  printSeedOnFailure("PROPERTY_SEED", PROPERTY_SEED);
  const saved = process.env.PULUMI_BACKEND_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.PULUMI_BACKEND_URL;
    else process.env.PULUMI_BACKEND_URL = saved;
  });

  it("property: no report, line or error shows the password of postgres://user:<password>@host/db", () => {
    fc.assert(
      fc.property(password, (p) => {
        const url = `postgres://fleet:${p}@127.0.0.1:1/state`;
        const report = buildReport("drift", "embedded-fleet", "every stack", new Date(), [failedStack(url)], {
          unusedAcknowledgements: [],
          discovery: { enabled: false },
          history: { kept: false, because: `--history backend: ${url} is not one the fleet keeps a history in` },
          events: [],
          notify: { to: "http://127.0.0.1:9", events: 1, delivered: false, attempts: 3, error: `proxy ${url} refused` },
        });
        const outputs = {
          json: JSON.stringify(report, null, 2),
          markdown: renderMarkdown(report),
          junit: renderJUnit(report),
          table: renderTable(report, Infinity),
          notes: renderDriftNotes(report),
          progress: describeStack(failedStack(url)),
          adopt: adoptLine({
            stack: "acme-eu",
            accountId: "x",
            status: "failed",
            steps: [],
            error: failedStack(url).error,
          }),
          error: shownText(`\`pulumi stack ls\` failed: ${failedStack(url).error}`),
        };
        for (const [where, text] of Object.entries(outputs)) {
          for (const form of forms(p))
            assert.ok(!text.includes(form), `${where} shows ${JSON.stringify(form)}:\n${text}`);
        }
        assert.match(outputs.json, /postgres:\/\/\[redacted\]@127\.0\.0\.1:1\/state/);
      }),
      propertyRuns(200),
    );
  });

  it("the backend's own password, known from PULUMI_BACKEND_URL, is hidden even where the engine quotes it apart", () => {
    const secret = "pass word 'quoted'";
    process.env.PULUMI_BACKEND_URL = `postgres://fleet:${secret}@127.0.0.1:1/state`;
    knowBackendOf(process.cwd());
    const text = shownText(`password authentication failed for user "fleet" (password "${secret}")`);
    assert.ok(!text.includes(secret), text);
  });
});
