// A fixed entry path. The dynamic resources serialize it into every state (`__provider`,
// hosts/dynamic/delegating-provider.ts) and the dynamic-provider process require()s it by package
// path, also for the resources an earlier version wrote: so it never moves, and only re-exports.
export * from "../hosts/dynamic/report-once";
// It exported this too, before it moved (client/service-failures.ts).
export { isProgrammingError } from "../client/service-failures";
