// The provider objects handed to pulumi.dynamic.Resource. Pulumi's closure serializer
// captures them into every resource's `__provider` input and the dynamic-provider process
// evaluates that text, where `require` resolves from the program's directory. So each
// object holds only the path of its implementation module and loads it at call time:
// nothing heavy (client, zod, undici) is captured, and the code that runs is the
// installed package's. The path ends in ".js": the package's `exports` pattern
// "./dist/*" maps names as they are, without extension lookup.
import type * as pulumi from "@pulumi/pulumi";
import type { CheckResult, CreateResult, DiffResult, ReadResult, UpdateResult } from "@pulumi/pulumi/dynamic";
import type { ConfigureRequestLike } from "./runtime";

type Props = Record<string, unknown>;

/** What each `*-impl` module exports. */
export interface ProviderImplementation {
  configureFromRequest(req: ConfigureRequestLike): void;
  check(olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(inputs: Props): Promise<CreateResult>;
  read(id: string, props?: Props): Promise<ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<UpdateResult>;
  remove(id: string, props: Props): Promise<void>;
}

/**
 * A provider whose every method loads `implementationPath` (a package path) and delegates.
 * `Implementation` is `typeof import("./x-impl")`: it only makes the compiler check that the
 * module has every operation.
 */
export function delegatingProvider<Implementation extends ProviderImplementation>(
  implementationPath: string,
): pulumi.dynamic.ResourceProvider {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (): Implementation => require(implementationPath);
  return {
    configure: async (req) => load().configureFromRequest(req),
    check: (olds, news) => load().check(olds, news),
    diff: (id, olds, news) => load().diff(id, olds, news),
    create: (inputs) => load().create(inputs),
    read: (id, props) => load().read(id, props),
    update: (id, olds, news) => load().update(id, olds, news),
    delete: (id, props) => load().remove(id, props),
  };
}
