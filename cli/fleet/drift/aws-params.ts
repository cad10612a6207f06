// The AWS settings of an `s3://` backend URL or an `awskms://` secrets provider URL, read as the
// Pulumi CLI reads them (pulumi v3.248.0 links gocloud.dev v0.46.0: aws.V2ConfigFromURLParams,
// and for S3 s3blob's own parameters and the CLI's translation of the SDK v1 ones). The SDK
// client gets the same settings; the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN, AWS_REGION or AWS_DEFAULT_REGION, AWS_PROFILE, AWS_ENDPOINT_URL…) as the Go
// SDK reads it. A parameter the CLI refuses, or one whose effect this reader cannot reproduce
// (an assumed role, an immutable hostname, a single-key bucket), is a reason: the engine reads
// the stack.

/** What an AWS SDK v3 client is given (the subset of its configuration these URLs set). */
export interface AwsClientSettings {
  region?: string;
  endpoint?: string;
  profile?: string;
  tls?: boolean;
  useDualstackEndpoint?: boolean;
  useFipsEndpoint?: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  requestChecksumCalculation?: "WHEN_SUPPORTED" | "WHEN_REQUIRED";
  responseChecksumValidation?: "WHEN_SUPPORTED" | "WHEN_REQUIRED";
}

export type Parsed<T> = { ok: T } | { reason: string };

/** Go's strconv.ParseBool. */
export function goBool(name: string, value: string): boolean {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  throw new Error(`its URL parameter ${name} is not a boolean (the CLI refuses it too)`);
}

const CHECKSUM_MODES: Record<string, "WHEN_SUPPORTED" | "WHEN_REQUIRED"> = {
  when_supported: "WHEN_SUPPORTED",
  when_required: "WHEN_REQUIRED",
};

/** The parameters aws.V2ConfigFromURLParams takes; `q` holds only those (the caller took its own). */
export function awsSettings(q: URLSearchParams, env: NodeJS.ProcessEnv): Parsed<AwsClientSettings> {
  const settings: AwsClientSettings = {};
  // The environment the run was given (which may not be this process's): the SDK reads process.env.
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY)
    settings.credentials = {
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    };
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION;
  if (region) settings.region = region;
  if (env.AWS_PROFILE) settings.profile = env.AWS_PROFILE;
  try {
    for (const name of new Set(q.keys())) {
      const value = q.get(name) ?? "";
      switch (name) {
        case "region":
          settings.region = value;
          break;
        case "endpoint":
          settings.endpoint = value;
          break;
        case "profile":
          settings.profile = value;
          delete settings.credentials; // the profile's, as the Go SDK's shared config wins
          break;
        case "dualstack":
          if (goBool(name, value)) settings.useDualstackEndpoint = true;
          break;
        case "fips":
          if (goBool(name, value)) settings.useFipsEndpoint = true;
          break;
        case "anonymous":
          if (goBool(name, value)) return { reason: "its URL asks for anonymous access (anonymous=true)" };
          break;
        case "rate_limiter_capacity": // client-side throttling: no effect on what is read
        case "awssdk": // gocloud v0.46 always uses the SDK v2
          break;
        case "request_checksum_calculation":
        case "response_checksum_validation": {
          const mode = CHECKSUM_MODES[value];
          if (!mode) return { reason: `its URL parameter ${name} is neither when_supported nor when_required` };
          if (name === "request_checksum_calculation") settings.requestChecksumCalculation = mode;
          else settings.responseChecksumValidation = mode;
          break;
        }
        case "role":
        case "hostname_immutable":
          return { reason: `its URL parameter ${name} is not read by the fast path` };
        default:
          return { reason: `its URL has the unknown parameter ${name} (the CLI refuses it too)` };
      }
    }
  } catch (error) {
    return { reason: (error as Error).message };
  }
  return { ok: settings };
}

/** The name of an SDK error, never its message (a message may quote a key or a value). */
export function sdkErrorName(error: unknown): string {
  const e = error as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  return `${typeof e?.name === "string" ? e.name : "an error"}${status ? ` (HTTP ${status})` : ""}`;
}
