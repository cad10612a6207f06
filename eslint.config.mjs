// Lint for every TypeScript file of the project (the compiled dist/ is not linted).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importPlugin from "eslint-plugin-import";
import { zones } from "./eslint-layers.mjs";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "**/node_modules/**", "**/bin/**", ".pulumi-state/**", ".data/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The layers (docs/DESIGN.md): an import across them that the rule forbids fails lint.
    files: ["contract/**/*.ts", "provider/**/*.ts", "service/**/*.ts", "cli/**/*.ts"],
    ignores: ["**/*.test.ts"],
    plugins: { import: importPlugin },
    settings: { "import/resolver": { node: { extensions: [".ts", ".js", ".json"] } } },
    rules: { "import/no-restricted-paths": ["error", { zones }] },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
  {
    // The local service's web page: a plain browser script (no build step).
    files: ["service/ui/**/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: {
        document: "readonly",
        fetch: "readonly",
        history: "readonly",
        location: "readonly",
        sessionStorage: "readonly",
        URLSearchParams: "readonly",
      },
    },
  },
  {
    // Plain CommonJS scripts run by npm (no build step).
    files: ["scripts/**/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", __dirname: "readonly", module: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
