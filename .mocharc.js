/* global module */
// Mocha's settings. The default spec (the whole suite: the unit tests beside the code they guard,
// then test/) applies only when the command names no test files: `npx mocha dist/test/x.test.js`
// runs that file alone, where Mocha would otherwise run it on top of the whole suite.
const named = process.argv.slice(2).some((arg) => !arg.startsWith("-") && /(\.js|\*)$/.test(arg));
module.exports = {
  ...(named
    ? {}
    : { spec: ["dist/{contract,provider,service,cli,bench,harness,scripts}/**/*.test.js", "dist/test/**/*.test.js"] }),
  recursive: true,
  timeout: 30000,
  "enable-source-maps": true,
  exit: true,
};
