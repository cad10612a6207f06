// The canaries of an SDK example's run (sdk-example-suite.ts): the client secrets, every Password
// (from `pulumi config set --secret`), and a value of every other field type, which the test
// writes into its copy of the program in place of the program's own (SdkExample.canaryEdits).
// These add the secret sources a Python or Go program has besides secret config: a
// Text the program marks secret (`pulumi.Output.secret`, `pulumi.ToSecret`), a Date that is
// another resource's secret output (a component, SecretHolder, written into the copy), and a
// lookup's name the program marks secret (from the environment: the CLI would mask a secret
// string of stack config in all it prints, and so hide what the plugin printed).
import { canary, dateCanary, numberCanary, OPTION_CANARIES } from "./canaries";

/**
 * The values of the field types a program writes itself (its Passwords come from secret config).
 * S3 (default provider): accessKeyId (Text), region (Select), fileFormats (Multi-Select),
 * maxFileSizeMb (Number), and startDate (Date), which the example leaves out: the edit adds it
 * after maxFileSizeMb. Segment (explicit provider): batchSize (Number), eventTypes (Multi-Select),
 * workspace (Text, made secret by the program) and backfillFrom (Date, a component's secret
 * output), which the example leaves out: the edit adds it after workspace.
 */
export interface FieldCanaries {
  text: string;
  select: string;
  multiSelect: string[];
  number: string;
  date: string;
  partnerNumber: string;
  partnerMultiSelect: string[];
  partnerSecretText: string;
  partnerHeldDate: string;
}

/** The environment variable of the secret lookup name; the program reads it when `e2eSecretLookup` is true. */
export const SECRET_LOOKUP_ENV = "E2E_SECRET_LOOKUP_NAME";

export interface ExampleCanaries {
  clientSecret: string;
  s3Password: string;
  facebookPassword: string;
  segmentPassword: string;
  /** The second seeded customer's: fixed by the service. */
  partnerClientSecret: string;
  fields: FieldCanaries;
  /** A connector name given to a lookup as a secret (SECRET_LOOKUP_ENV): no connector has it. */
  secretLookupName: string;
  /** [what it is, its value]: none may appear anywhere. */
  all: [string, string][];
}

/** The canaries of one example's run; `label` tells the runs apart (example and CLI). */
export function exampleCanaries(label: (what: string) => string): ExampleCanaries {
  const fields: FieldCanaries = {
    text: canary(label("text")),
    select: OPTION_CANARIES.region,
    multiSelect: [OPTION_CANARIES.fileFormats, "avro"],
    number: numberCanary(label("max-file-size")),
    date: dateCanary(label("start-date")),
    partnerNumber: numberCanary(label("batch-size")),
    partnerMultiSelect: [OPTION_CANARIES.eventTypes, "identify"],
    partnerSecretText: canary(label("secret-workspace")),
    partnerHeldDate: dateCanary(label("held-backfill-from")),
  };
  const made = {
    clientSecret: canary(label("client")),
    s3Password: canary(label("s3-password")),
    facebookPassword: canary(label("facebook-password")),
    segmentPassword: canary(label("segment-password")),
    partnerClientSecret: "other-secret",
    secretLookupName: canary(label("lookup-name")),
  };
  return {
    ...made,
    fields,
    all: [
      ["the default provider's client secret", made.clientSecret],
      ["the explicit provider's client secret", made.partnerClientSecret],
      ["S3 secretAccessKey (Password)", made.s3Password],
      ["Facebook clientSecret (Password)", made.facebookPassword],
      ["Segment apiKey (Password, explicit provider)", made.segmentPassword],
      ["S3 accessKeyId (Text)", fields.text],
      ["S3 region (Select)", fields.select],
      ["S3 fileFormats (Multi-Select)", OPTION_CANARIES.fileFormats],
      ["S3 maxFileSizeMb (Number)", fields.number],
      ["S3 startDate (Date)", fields.date],
      ["Segment batchSize (Number, explicit provider)", fields.partnerNumber],
      ["Segment eventTypes (Multi-Select, explicit provider)", OPTION_CANARIES.eventTypes],
      ["Segment workspace (Text the program made secret, explicit provider)", fields.partnerSecretText],
      ["Segment backfillFrom (Date, another resource's secret output)", fields.partnerHeldDate],
      ["a lookup's name the program made secret", made.secretLookupName],
    ],
  };
}
