/* eslint-disable no-undef, @typescript-eslint/no-require-imports -- a CommonJS entry, loaded by Node as is */
// The pack's entry: @pulumi/pulumi's policy-pack runner loads this folder (docs/policy.md).
require("../dist/provider/policy/pack");
