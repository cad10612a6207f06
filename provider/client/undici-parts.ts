// undici's Pool and its request API, each loaded from its own module rather than through
// undici's entry. The entry loads all of undici (fetch, WebSocket, caches, proxies, mocks:
// about 110 modules) to give two of them: +5 MiB resident and ~70 ms at every provider
// process's start, against +0.3 MiB and ~8 ms for these 24 (bench/analysis.md). undici has no
// `exports` map, so the paths are importable; provider/client/undici-parts.test.ts checks that
// they are the very objects the entry exports. Should an undici release in the package's
// range move them, the entry is loaded instead: slower to start, the same behaviour.
import type { Dispatcher, Pool as UndiciPool } from "undici";

type RequestApi = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

function parts(): { Pool: typeof UndiciPool; requestApi: RequestApi } {
  try {
    return {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      Pool: require("undici/lib/dispatcher/pool") as typeof UndiciPool,
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      requestApi: require("undici/lib/api/api-request") as RequestApi,
    };
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const undici = require("undici") as typeof import("undici");
    return { Pool: undici.Pool, requestApi: undici.Dispatcher.prototype.request as RequestApi };
  }
}

const loaded = parts();
export const Pool = loaded.Pool;
const requestApi = loaded.requestApi;

/** `dispatcher.request(options)`, without undici's entry having added `request` to every dispatcher. */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestApi.call(dispatcher, options);
}
