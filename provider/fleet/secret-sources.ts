// Which environment variables a stack file may route into a connector's fields. One fleet run
// holds every customer's client secret and the fleet's own credentials, and the stack file is
// what a reviewer reads per sub-account: so `{ env: NAME }` takes only a name its customer
// allows in customers.json (`secretEnv`: names or glob patterns), and never one of the fleet's
// own credentials, whatever the allow-list says. In the package (not in a file users copy), so
// a fix reaches every fleet with the next install. It imports only the settings' table (pure) and
// the package's one rule of what is a secret field (schema/secret-fields.ts, pure): the program
// and its tests share it.
import { isSecretField, type SecretTypesSource } from "../schema/secret-fields";
import { SETTINGS } from "../settings/table";

export interface Customer {
  clientId: string;
  /** The environment variable holding the customer's client secret. */
  clientSecretEnv: string;
  /** Default: embedded:baseUrl, else EMBEDDED_BASE_URL (the provider's own settings). */
  baseUrl?: string;
  /** The environment variables its stack files may name in `{ env: … }`: names or patterns (`*`, `?`). */
  secretEnv?: string[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A glob (`*` any run of characters, `?` one) as an anchored, case-sensitive expression. */
export function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}

/**
 * Never a connector's value, whatever `secretEnv` says: the fleet's own credentials (the engine's
 * passphrase, tokens and backend, the default provider's client secret) and those of the state
 * backend and the clouds a run holds (docs/fleet-secrets.md lists them).
 */
export const ALWAYS_REFUSED = [
  "PULUMI_*",
  SETTINGS.clientSecret.env,
  "AWS_*",
  "AZURE_*",
  "ARM_*",
  "GOOGLE_*",
  "GCLOUD_*",
  "CLOUDSDK_*",
  "VAULT_*",
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "GH_ENTERPRISE_TOKEN",
  "GITHUB_ENTERPRISE_TOKEN",
  "ACTIONS_*",
  "NPM_TOKEN",
];
const refusedAlways = ALWAYS_REFUSED.map((pattern) => new RegExp(globToRegExp(pattern).source, "i"));

/**
 * Why `{ env: variable }` may not feed `where` in a stack of `customerName`, or undefined when
 * it may. The message names the variable (a name, never its value) and what to do.
 */
export function envSourceRefusal(
  variable: string,
  where: string,
  customerName: string | undefined,
  customers: Record<string, Customer>,
): string | undefined {
  if (!ENV_NAME.test(variable)) {
    return `${where}: { env: ${JSON.stringify(variable)} } is not an environment variable's name`;
  }
  if (refusedAlways.some((r) => r.test(variable))) {
    return (
      `${where}: { env: ${variable} } is one of the fleet's own credentials or its backend's or cloud's ` +
      `(${ALWAYS_REFUSED.join(", ")}), never a connector's value`
    );
  }
  const owner = Object.entries(customers).find(([, c]) => c.clientSecretEnv.toUpperCase() === variable.toUpperCase());
  if (owner) {
    return `${where}: { env: ${variable} } is customer ${owner[0]}'s client secret (customers.json), never a connector's value`;
  }
  if (customerName === undefined) {
    return `${where}: { env: ${variable} }: a stack without a customer takes no environment variable; set the customer, or use { config: <key> } (a stack secret)`;
  }
  const allowed = customers[customerName]?.secretEnv ?? [];
  if (!allowed.some((pattern) => globToRegExp(pattern).test(variable))) {
    return (
      `${where}: { env: ${variable} } is not in customer ${customerName}'s secretEnv in customers.json ` +
      `(${allowed.length > 0 ? allowed.join(", ") : "none"}): add it there (a reviewed change), or use { config: <key> }`
    );
  }
  return undefined;
}

/**
 * Why a secret source may not feed a field of this type, or undefined: the service returns every
 * type but a secret one (a Password in any letter case, or a type `profile` adds) in clear.
 */
export function clearFieldRefusal(
  where: string,
  fieldType: string | undefined,
  profile?: SecretTypesSource,
): string | undefined {
  if (fieldType === undefined || isSecretField({ type: fieldType }, profile)) return undefined;
  return (
    `${where} is a ${fieldType} field, which the service returns in clear to whoever reads the sub-account: ` +
    "a secret source must feed a secret field (a Password) only; give a value that is not secret under values:, " +
    "or fix the field id"
  );
}
