/* global module */
// Mocha's settings (.mocharc.json holds the same for tools that read only JSON). The default spec
// (the whole suite) applies only when the command names no test files: `npx mocha dist/test/x.test.js`
// runs that file alone, where Mocha would otherwise run it on top of the whole suite.
const named = process.argv.slice(2).some((arg) => !arg.startsWith("-") && /(\.js|\*)$/.test(arg));
module.exports = {
  ...(named ? {} : { spec: ["dist/test/**/*.test.js"] }),
  recursive: true,
  timeout: 30000,
  "enable-source-maps": true,
  exit: true,
};
