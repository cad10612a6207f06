// State kept per client (other credentials, other state) and then per sub-account.

/** The per-sub-account map of one client (other credentials, other maps), made on first use. */
export function perClient<V>(maps: WeakMap<object, Map<string, V>>, client: object): Map<string, V> {
  let map = maps.get(client);
  if (!map) {
    map = new Map();
    maps.set(client, map);
  }
  return map;
}
