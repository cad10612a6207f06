// Bearer authentication of the routes with config.auth "bearer": 401 saying what is wrong,
// else the caller's customer position and client id on the request.
import type { Auth } from "../domain/auth";
import { appPlugin } from "./plugin";

export function bearerAuth(auth: Auth) {
  return appPlugin("auth", (app) => {
    app.addHook("onRequest", async (request) => {
      if (request.routeOptions.config.auth !== "bearer") return;
      const { position, clientId } = auth.verify(request.headers.authorization);
      request.customerPosition = position;
      request.clientId = clientId;
    });
  });
}
