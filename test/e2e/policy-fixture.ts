// What the policy pack's engine tests share (policy-pack.test.ts, fleet-policy.test.ts): the pack
// folder the package ships, one config that sets every rule, and what each rule's violation says.
import * as path from "node:path";
import { repoRoot } from "../../harness/engine";

/** The package's pack folder (package.json "files": policy). */
export const policyPackDir = path.join(repoRoot, "policy");

/** Every rule set, mandatory: S3 and Facebook allowed, three fields required of S3, one connector per sub-account. */
export const POLICY_CONFIG = (accountId: string) => ({
  "embedded-allowed-connectors": {
    enforcementLevel: "mandatory",
    connectors: [{ name: "Amazon S3", side: "Source" }, { name: "Facebook Custom Audiences" }],
  },
  "embedded-passwords-from-secrets": { enforcementLevel: "mandatory", heldByService: [] },
  "embedded-required-secret-config": {
    enforcementLevel: "mandatory",
    fields: { "Amazon S3": ["bucket", "region", "fileFormats"] },
  },
  "embedded-connectors-per-sub-account": { enforcementLevel: "mandatory", max: 2, accounts: { [accountId]: 1 } },
  "embedded-no-secret-id": "mandatory",
});

/** What each rule's violation says of the violating declaration. */
export const RULE_SAYS: Record<string, RegExp[]> = {
  "embedded-allowed-connectors": [/AddedConnector "destination" adds connector "Segment"/, /add a match for it/],
  "embedded-passwords-from-secrets": [
    /secretConfig "secretAccessKey" of connector \w+ is a Password field/,
    /--secret/,
  ],
  "embedded-required-secret-config": [/secretConfig lacks "fileFormats"/],
  "embedded-connectors-per-sub-account": [/gets 2 AddedConnectors \("destination", "source"\), more than the 1/],
  "embedded-no-secret-id": [/configurationId is given as a secret/],
};
