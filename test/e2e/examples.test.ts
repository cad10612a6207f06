// Issue 4, item 10: the example programs under examples/ run (up, destroy) in
// CI. RESERVED for the engineer who writes the examples: add one `it` per
// example here, with the harness of ./harness.ts (E2EStack, ensureEngine) and
// a service from ./fixtures.ts (startService). Example directories are not
// under test/e2e/programs/, so E2EStack.create needs their path (or a copy
// under programs/.work/) — extend StackOptions for that when adding them.
describe("e2e: examples/ (issue 4, item 10)", function () {
    it("each example program runs up and destroy against the local service (pending: issue 4, item 10)");
});
