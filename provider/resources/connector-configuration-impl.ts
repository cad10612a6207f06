// A fixed entry path that users' states name: the dynamic ConnectorConfiguration serializes it into
// every state (`__provider`, hosts/dynamic/delegating-provider.ts) and the dynamic-provider process
// require()s it by package path, also for resources an earlier version wrote. It never moves.
export * from "../connector-configuration/steps";
