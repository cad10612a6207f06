// Client credentials and bearer tokens. Secrets are stored as scrypt hashes,
// tokens as sha256 hashes (they are 256 random bits, so a fast hash suffices);
// comparisons of secrets are constant-time.
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import type { Repository } from "../storage/repository";
import { ApiError } from "./errors";

export interface CustomerCredentials {
  clientId: string;
  clientSecret: string;
}

/** A customer as buildApp hands it over (service/seed makes them): credentials and accounts. */
export interface Customer extends CustomerCredentials {
  organizationAccountId: string;
  subAccountIds: string[];
}

const scryptAsync = promisify(scrypt) as (password: string, salt: string, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;
const DUMMY_SALT = "0000000000000000";
/** How long an expired token still answers "expired" rather than "unknown". */
const EXPIRED_MEMORY_MS = 24 * 3600 * 1000;

export const sha256 = (value: string): string => createHash("sha256").update(value).digest("hex");

async function hashSecret(secret: string, salt: string): Promise<Buffer> {
  return scryptAsync(secret, salt, KEY_LENGTH);
}

/** Stores the given customers (their position is their index), secrets hashed. */
export async function storeCustomers(repo: Repository, customers: readonly Customer[]): Promise<void> {
  const rows = await Promise.all(
    customers.map(async (c, position) => {
      const salt = randomBytes(16).toString("hex");
      return { c, position, salt, hash: (await hashSecret(c.clientSecret, salt)).toString("hex") };
    }),
  );
  repo.transaction(() => {
    for (const { c, position, salt, hash } of rows) {
      repo.upsertCustomer(
        {
          position,
          client_id: c.clientId,
          secret_salt: salt,
          secret_hash: hash,
          organization_account_id: c.organizationAccountId,
        },
        c.subAccountIds,
      );
    }
  });
}

export class Auth {
  constructor(
    private readonly repo: Repository,
    private readonly ttlSeconds: number,
    private readonly now: () => number,
  ) {}

  async issueToken(clientId: string, clientSecret: string): Promise<{ accessToken: string; expiry: number }> {
    const customer = this.repo.customerByClientId(clientId);
    // An unknown client id costs the same scrypt as a known one, so timing does not tell them apart.
    const given = await hashSecret(clientSecret, customer?.secret_salt ?? DUMMY_SALT);
    const expected = customer ? Buffer.from(customer.secret_hash, "hex") : Buffer.alloc(KEY_LENGTH);
    if (!customer || !timingSafeEqual(given, expected)) throw new ApiError(401, "invalid client credentials");
    const accessToken = randomBytes(32).toString("base64url");
    const now = this.now();
    this.repo.transaction(() => {
      this.repo.pruneTokens(now - EXPIRED_MEMORY_MS);
      this.repo.insertToken(sha256(accessToken), customer.position, now + this.ttlSeconds * 1000);
    });
    return { accessToken, expiry: this.ttlSeconds };
  }

  /** Fault injection: the bearer token of this header expires now, whatever lifetime it was issued with. */
  expireNow(authorization: string | undefined): void {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (match) this.repo.expireToken(sha256(match[1]), this.now());
  }

  /** The customer position behind an Authorization header, or 401 saying what is wrong. */
  verify(authorization: string | undefined): { position: number; clientId: string } {
    if (!authorization) throw new ApiError(401, "missing bearer token");
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new ApiError(401, "malformed Authorization header: expected 'Bearer <token>'");
    const token = this.repo.token(sha256(match[1]));
    if (!token) throw new ApiError(401, "unknown access token");
    if (token.expiresAt <= this.now()) throw new ApiError(401, "access token expired");
    return { position: token.position, clientId: token.clientId };
  }

  /** Guards accountId: only the caller's own sub-accounts. Unknown ids get 403 too, to reveal nothing. */
  checkAccount(position: number, accountId: string | undefined): void {
    if (accountId === undefined || accountId === "")
      throw new ApiError(400, "accountId is required", {
        errors: [{ field: "accountId", message: "required" }],
      });
    const owner = this.repo.accountOwner(accountId);
    if (owner?.kind === "organization" && owner.position === position) {
      throw new ApiError(400, "connectors are managed only in sub-accounts");
    }
    if (owner?.kind !== "sub" || owner.position !== position) {
      throw new ApiError(403, "this account is not a sub-account of the caller");
    }
  }
}
