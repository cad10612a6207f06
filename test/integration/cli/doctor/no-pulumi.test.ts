// doctor run in a Pulumi project on a machine whose PATH has no `pulumi`: it says so (and what
// to do), not "no stack selected?", and reads the service from the environment all the same.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { startLocalService, type LocalService } from "../../../../harness/local-service";

const root = path.resolve(__dirname, "../../../../..");
const execFileAsync = promisify(execFile);

describe("cli: doctor without pulumi on PATH", function () {
  this.timeout(60_000);
  let service: LocalService;
  let dir: string;
  before(async () => {
    service = await startLocalService();
    dir = mkdtempSync(path.join(tmpdir(), "doctor-no-pulumi-"));
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: nodejs\n");
  });
  after(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("names the missing CLI and the flags that help, then reads the service", async () => {
    const customer = service.customers[0];
    const run = await execFileAsync(process.execPath, [path.join(root, "dist", "cli", "main.js"), "doctor"], {
      cwd: dir,
      env: {
        PATH: path.join(dir, "no-such-bin"), // node is run by its path; nothing else is found
        HOME: dir,
        EMBEDDED_BASE_URL: service.baseUrl,
        EMBEDDED_CLIENT_ID: customer.clientId,
        EMBEDDED_CLIENT_SECRET: customer.clientSecret,
        EMBEDDED_ACCOUNT_ID: customer.subAccountIds[0],
      },
    });
    assert.match(run.stderr, /`pulumi` was not found \(is the Pulumi CLI installed and on PATH\?/, run.stderr);
    assert.match(run.stderr, /--pulumi <path>/);
    assert.doesNotMatch(run.stderr, /no stack selected/);
    assert.match(run.stdout, /result: the profile reads every route/, run.stdout);
  });
});
