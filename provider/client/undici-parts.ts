// undici's Pool and its request API, each loaded from its own module rather than through
// undici's entry. The entry loads all of undici (fetch, WebSocket, caches, proxies, mocks:
// about 110 modules) to give two of them: +5 MiB resident and ~70 ms at every provider
// process's start, against +0.3 MiB and ~8 ms for these 24 (bench/analysis.md). undici has no
// `exports` map, so the paths are importable; test/client/undici-parts.test.ts checks that
// they are the very objects the entry exports.
import type { Dispatcher, Pool as UndiciPool } from "undici";

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const Pool = require("undici/lib/dispatcher/pool") as typeof UndiciPool;

type RequestApi = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const requestApi = require("undici/lib/api/api-request") as RequestApi;

/** `dispatcher.request(options)`, without undici's entry having added `request` to every dispatcher. */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestApi.call(dispatcher, options);
}
