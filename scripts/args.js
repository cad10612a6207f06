// The command line of a script, read by node:util's parseArgs in strict mode: a misspelled flag,
// a positional argument, or a flag where a value belongs (`--out --launcher-only`) stops the
// script with its usage (exit 2) before it does anything, instead of passing silently.
const { parseArgs } = require("node:util");

/**
 * The values of `options` (parseArgs' form) given on the command line.
 * @param {string} usage the script's usage line, printed on a mistake
 * @param {import("node:util").ParseArgsConfig["options"]} options
 * @param {string[]} [args]
 */
function scriptArgs(usage, options, args = process.argv.slice(2)) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    console.error(`${error.message}\nusage: ${usage}`);
    process.exit(2);
  }
}

module.exports = { scriptArgs };
