// Links node_modules/pulumi-embedded-connectors to this checkout, so that the
// examples and the dynamic-provider process (which resolves modules from the
// program's directory) load this package by its name, as an installed user's would.
// Run by `npm run build` (so by `npm start` and `npm test`), not as an npm
// lifecycle script: a `prepare` would ship in the package's manifest, and npm
// lists it as an install script to every user who installs the tarball.
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const link = path.join(root, "node_modules", "pulumi-embedded-connectors");
try {
  if (fs.readlinkSync(link) === "..") process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  // not a link yet
}
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.symlinkSync("..", link, "dir");
