// An `azblob://<container>[/<dir>]?<parameters>` backend as a store, read with Azure's SDK
// (@azure/storage-blob, an optional peer dependency) as the CLI reads it (gocloud.dev v0.46.0
// azureblob): the account from AZURE_STORAGE_ACCOUNT (or `storage_account=`, or the connection
// string's AccountName), the service URL from `domain` (AZURE_STORAGE_DOMAIN, default
// blob.core.windows.net), `protocol` (AZURE_STORAGE_PROTOCOL, default https), `localemu`
// (AZURE_STORAGE_IS_LOCAL_EMULATOR: the account in the path, as Azurite serves it) and `cdn`
// (AZURE_STORAGE_IS_CDN); the credentials in the CLI's order: AZURE_STORAGE_KEY with the account,
// else AZURE_STORAGE_SAS_TOKEN, else AZURE_STORAGE_CONNECTION_STRING (or
// AZURE_STORAGEBLOB_CONNECTIONSTRING). Azure AD credentials (the CLI's last resort) are not
// read here: such a backend goes to the engine.
import { goBool } from "./aws-params";
import { loadAzureBlob } from "./cloud-sdks";
import { bucketPrefix, type BlobStore, type StoredObject } from "./store";

interface AzureLocation {
  container: string;
  prefix: string;
  serviceUrl: string;
  credential: { key: string } | { sas: string } | { connectionString: string };
  account: string;
}

const boolEnv = (value: string | undefined) => ["1", "t", "T", "TRUE", "true", "True"].includes(value ?? "");

/** The container, key prefix, service URL and credential of an `azblob://` URL, or why not. */
export function parseAzblobUrl(url: string, env: NodeJS.ProcessEnv): { ok: AzureLocation } | { reason: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { reason: "its azblob:// backend URL does not parse" };
  }
  const connectionString = env.AZURE_STORAGE_CONNECTION_STRING || env.AZURE_STORAGEBLOB_CONNECTIONSTRING || "";
  const fromConnection = (name: string) =>
    connectionString
      .split(";")
      .map((part) => part.split("="))
      .find((kv) => kv.length === 2 && kv[0] === name)?.[1];
  let account = env.AZURE_STORAGE_ACCOUNT || fromConnection("AccountName") || "";
  let protocol = env.AZURE_STORAGE_PROTOCOL || fromConnection("DefaultEndpointsProtocol") || "";
  let domain = env.AZURE_STORAGE_DOMAIN || "";
  let cdn = boolEnv(env.AZURE_STORAGE_IS_CDN);
  let emulator = boolEnv(env.AZURE_STORAGE_IS_LOCAL_EMULATOR);
  const q = new URLSearchParams(u.search);
  const prefixParam = q.get("prefix") ?? "";
  if (q.has("key")) return { reason: "its backend URL names a single key (key=)" };
  q.delete("prefix");
  try {
    for (const name of new Set(q.keys())) {
      if (q.getAll(name).length > 1) return { reason: `its URL parameter ${name} has several values` };
      const value = q.get(name) ?? "";
      if (name === "domain") domain = value;
      else if (name === "protocol") protocol = value;
      else if (name === "cdn") cdn = goBool(name, value);
      else if (name === "localemu") emulator = goBool(name, value);
      else if (name === "storage_account") account = value;
      else return { reason: `its URL has the unknown parameter ${name} (the CLI refuses it too)` };
    }
  } catch (error) {
    return { reason: (error as Error).message };
  }
  if (!account) return { reason: "no storage account is named (AZURE_STORAGE_ACCOUNT)" };
  protocol ||= "https";
  if (protocol !== "http" && protocol !== "https") return { reason: `its storage protocol is not http or https` };
  domain ||= "blob.core.windows.net";
  const serviceUrl =
    domain.startsWith("127.0.0.1") || domain.startsWith("localhost") || emulator
      ? `${protocol}://${domain}/${account}`
      : cdn
        ? `${protocol}://${domain}`
        : `${protocol}://${account}.${domain}`;
  let credential: AzureLocation["credential"];
  if (env.AZURE_STORAGE_ACCOUNT && env.AZURE_STORAGE_KEY) credential = { key: env.AZURE_STORAGE_KEY };
  else if (env.AZURE_STORAGE_SAS_TOKEN) credential = { sas: env.AZURE_STORAGE_SAS_TOKEN };
  else if (connectionString) credential = { connectionString };
  else return { reason: "its credentials would be Azure AD's (no AZURE_STORAGE_KEY, SAS token or connection string)" };
  const container = decodeURIComponent(u.hostname);
  if (!container) return { reason: "its azblob:// backend URL names no container" };
  return { ok: { container, prefix: bucketPrefix(u, prefixParam), serviceUrl, credential, account } };
}

/** The error's code (an Azure error code) and status, never its message. */
function azureErrorName(error: unknown): string {
  const e = error as { code?: unknown; statusCode?: unknown };
  return `${typeof e?.code === "string" ? e.code : "an error"}${typeof e?.statusCode === "number" ? ` (HTTP ${e.statusCode})` : ""}`;
}

export async function azblobStore(
  url: string,
  env: NodeJS.ProcessEnv,
): Promise<{ store: BlobStore } | { reason: string }> {
  const location = parseAzblobUrl(url, env);
  if ("reason" in location) return location;
  let sdk: Awaited<ReturnType<typeof loadAzureBlob>>;
  try {
    sdk = await loadAzureBlob();
  } catch (error) {
    return { reason: (error as Error).message };
  }
  const { container, prefix, serviceUrl, credential, account } = location.ok;
  const client =
    "key" in credential
      ? new sdk.ContainerClient(
          `${serviceUrl}/${container}`,
          new sdk.StorageSharedKeyCredential(account, credential.key),
        )
      : "sas" in credential
        ? new sdk.ContainerClient(`${serviceUrl}/${container}?${credential.sas.replace(/^\?/, "")}`)
        : new sdk.ContainerClient(credential.connectionString, container);
  const name = `azblob://${container}/${prefix}`;
  const failed = (what: string, error: unknown) =>
    new Error(`${what} of ${name} failed: ${azureErrorName(error)} (check the storage account and its credentials)`);
  const store: BlobStore = {
    name,
    async list(keyPrefix) {
      const objects: StoredObject[] = [];
      try {
        for await (const item of client.listBlobsByHierarchy("/", { prefix: `${prefix}${keyPrefix}` }))
          if (item.kind === "blob")
            objects.push({ key: item.name.slice(prefix.length), modified: item.properties.lastModified });
      } catch (error) {
        throw failed("a listing", error);
      }
      return objects;
    },
    async read(key) {
      try {
        return await client.getBlobClient(`${prefix}${key}`).downloadToBuffer();
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return undefined;
        throw failed(`a read of ${key}`, error);
      }
    },
    async write(key, bytes) {
      await client
        .getBlockBlobClient(`${prefix}${key}`)
        .uploadData(bytes)
        .catch((error: unknown) => {
          throw failed(`a write of ${key}`, error);
        });
    },
  };
  return { store };
}
