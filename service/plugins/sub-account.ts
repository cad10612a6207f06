// The sub-account guard of the routes with config.accountScoped: accountId is required and
// must be one of the caller's own sub-accounts (domain/auth.ts decides).
import type { Auth } from "../domain/auth";
import { appPlugin } from "./plugin";

export function subAccount(auth: Auth) {
  return appPlugin("sub-account", (app) => {
    app.addHook("onRequest", async (request) => {
      const position = request.customerPosition;
      if (!request.routeOptions.config.accountScoped || position === undefined) return;
      const at = request.routeOptions.config.accountIdAt ?? { in: "query", name: "accountId" };
      const source = (at.in === "path" ? request.params : request.query) as Record<string, unknown>;
      const accountId = source[at.name];
      auth.checkAccount(position, typeof accountId === "string" ? accountId : undefined);
    });
  });
}
