// The provider objects handed to pulumi.dynamic.Resource. Pulumi's closure serializer
// captures them into every resource's `__provider` input and the dynamic-provider process
// evaluates that text, where `require` resolves from the program's directory. So each
// object holds only the path of its implementation module and loads it at call time:
// nothing heavy (client, zod, undici) is captured, and the code that runs is the
// installed package's. The path ends in ".js": the package's `exports` pattern
// "./dist/*" maps names as they are, without extension lookup. Every state holds these
// paths (states of earlier versions too), so they keep resolving: a module that moves
// leaves a re-export behind (resources/report-once.ts).
import * as pulumi from "@pulumi/pulumi";
import type { CheckResult, CreateResult, DiffResult, ReadResult, UpdateResult } from "@pulumi/pulumi/dynamic";
import type { ConfigureRequestLike } from "../../runtime/runtime";

type Props = Record<string, unknown>;

const REPORT_ONCE_PATH = "pulumi-embedded-connectors/dist/provider/resources/report-once.js";

/** What each `*-impl` module exports. */
export interface ProviderImplementation {
  configureFromRequest(req: ConfigureRequestLike, owner?: string): void;
  check(olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(inputs: Props): Promise<CreateResult>;
  read(id: string, props?: Props): Promise<ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<UpdateResult>;
  /** `urn`: the resource's, when the host knows it (the plugin), for the warnings about it. */
  remove(id: string, props: Props, urn?: string): Promise<void>;
}

/**
 * The provider of one resource type, per stack: `(owner?) => provider`, made once per owner.
 * Each provider's methods load `implementationPath` (a package path) and delegate. The owner
 * (`project/stack`) is read when a resource is constructed, not when this module is imported:
 * an Automation API process may run several stacks, and an inline program imports the
 * package before any stack is known. `Implementation` is `typeof import("../resources/x-impl")`: it
 * only makes the compiler check that the module has every operation.
 */
export function delegatingProvider<Implementation extends ProviderImplementation>(
  implementationPath: string,
): (owner?: string) => pulumi.dynamic.ResourceProvider {
  const made = new Map<string, pulumi.dynamic.ResourceProvider>();
  return (owner = stackOwner()) => {
    let provider = made.get(owner);
    if (!provider) {
      provider = providerFor<Implementation>(implementationPath, owner);
      made.set(owner, provider);
    }
    return provider;
  };
}

function providerFor<Implementation extends ProviderImplementation>(
  implementationPath: string,
  owner: string,
): pulumi.dynamic.ResourceProvider {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (): Implementation => require(implementationPath);
  // The operations whose failures the host also prints itself (report-once.ts); loaded by
  // package path like the implementation, so that nothing of it is captured.
  const once = <T>(operation: () => Promise<T>): Promise<T> =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require(REPORT_ONCE_PATH) as typeof import("./report-once")).reportOnce(operation);
  // `owner` is captured as a plain string: the provider process is not told the stack, and
  // the pending-Add journal keeps each stack's records apart.
  return {
    configure: async (req) => load().configureFromRequest(req, owner),
    check: (olds, news) => once(() => load().check(olds, news)),
    diff: (id, olds, news) => once(() => load().diff(id, olds, news)),
    create: (inputs) => load().create(inputs),
    read: (id, props) => once(() => load().read(id, props)),
    update: (id, olds, news) => load().update(id, olds, news),
    delete: (id, props) => once(() => load().remove(id, props)),
  };
}

/** `project/stack` of the running program; empty outside a Pulumi program. */
function stackOwner(): string {
  try {
    const stack = pulumi.getStack();
    return stack ? `${pulumi.getProject()}/${stack}` : "";
  } catch {
    return "";
  }
}
