// AddedConnector's machinery of one provider process: the Add coalescer (coalescer.ts), whose
// writes invalidate the sub-account's listing, which counts the engine's steps, and whose
// ownership rule reads the listing and the stack's pending-write records.
import { engineSteps } from "../runtime/engine-steps";
import { processLocal } from "../runtime/process-local";
import { runtime } from "../runtime/runtime";
import { addedListing } from "../sub-account/process";
import { AddCoalescer } from "./coalescer";

/** Coalesced Add calls of this process (coalescer.ts). */
export const addCoalescer = processLocal(
  "add-coalescer",
  () =>
    new AddCoalescer({
      onWrite: (client, accountId) => addedListing().invalidate(client, accountId),
      steps: engineSteps(),
      ownership: {
        snapshot: (client, accountId) => addedListing().snapshot(client, accountId),
        journal: () => runtime().journal,
      },
    }),
  (adds) => adds.ownership.reset(),
);
