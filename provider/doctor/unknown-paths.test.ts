// doctor against a wire whose paths differ from its profile's (the local service under
// profiles/account-in-path.yaml, doctor with the built-in profile): the result line says that
// --write-profile cannot find a path, and the profile it writes is a template listing every
// operation with its method and path, those not found marked for the user to fill in.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { DEFAULT_PROFILE, loadProfile } from "../../contract/profile";
import { doctor } from "./command";
import { FILL_IN } from "./suggest";
import { startLocalService, type LocalService } from "../../harness/local-service";

const PROFILES = path.resolve(__dirname, "../../../profiles");

describe("doctor: a wire whose paths the profile does not know", function () {
  this.timeout(60_000);
  let service: LocalService;
  let dir: string;
  before(async () => {
    service = await startLocalService({ profile: path.join(PROFILES, "account-in-path.yaml") });
    dir = mkdtempSync(path.join(tmpdir(), "doctor-paths-"));
  });
  after(async () => {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(writeProfile: string): Promise<{ code: number; text: string }> {
    const customer = service.customers[0];
    let text = "";
    const code = await doctor(
      {
        baseUrl: service.baseUrl,
        clientId: customer.clientId,
        clientSecret: customer.clientSecret,
        accountId: customer.subAccountIds[0],
        stack: false,
        pulumi: "pulumi",
        writeProfile,
      },
      (t) => (text += t),
    );
    return { code, text };
  }

  for (const file of ["template.yaml", "template.json"]) {
    it(`${file}: the result line says to fill the path in; the template lists every operation, the missing marked`, async () => {
      const written = path.join(dir, file);
      const { code, text } = await run(written);
      assert.equal(code, 1, text);
      const result = text.split("\n").find((line) => line.startsWith("result:")) ?? "";
      assert.match(result, /Not found at the profile's method and path: getToken/, result);
      assert.match(result, /doctor cannot find a path: look each one up in the service's documentation/, result);
      assert.doesNotMatch(
        result,
        /^result: [^.]*\. Write a corrected profile/,
        "no promise that --write-profile fixes it",
      );
      const body = readFileSync(written, "utf8");
      const profile = (file.endsWith(".json") ? JSON.parse(body) : parse(body)) as {
        operations: Record<string, { method: string; path: string }>;
      };
      for (const [name, op] of Object.entries(DEFAULT_PROFILE.operations)) {
        assert.equal(profile.operations[name]?.method, op.method, `${name}'s method in ${body}`);
        assert.equal(profile.operations[name]?.path, op.path, `${name}'s path in ${body}`);
      }
      assert.ok(body.includes(FILL_IN), body);
      if (file.endsWith(".yaml")) {
        const mark = body.split("\n").findIndex((line) => line.includes(FILL_IN));
        assert.match(body.split("\n")[mark + 1] ?? "", /^ {2}getToken:/, "the mark sits on getToken");
      }
      loadProfile(written); // a valid profile, once filled in or not
    });
  }
});
