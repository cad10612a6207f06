// Writes service/openapi.json from the route schemas (npm run openapi, after a build).
import fs from "node:fs";
import path from "node:path";
import { buildApp } from "./app";

async function main(): Promise<void> {
  const app = buildApp({ db: ":memory:" });
  await app.ready();
  const target = path.resolve(__dirname, "..", "..", "service", "openapi.json");
  fs.writeFileSync(target, `${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
  process.stdout.write(`wrote ${target}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
