// Request counts (GET /_admin/stats): token requests on arrival (before faults, so one a
// fault then refuses still counts), every answer by route and status once sent. Requests
// whose socket a fault destroyed are counted by the faults plugin; /_admin/* never.
import type { StatsRecorder } from "../stats";
import { appPlugin, isAdminRequest, isAdminUrl, routeKey } from "./plugin";

export function stats(recorder: StatsRecorder) {
  return appPlugin("stats", (app) => {
    app.addHook("onRequest", async (request) => {
      if (isAdminRequest(request)) return;
      // The token route, at the contract's path or a served profile's.
      if (request.routeOptions.config.operation === "getToken") recorder.countTokenRequest();
    });
    app.addHook("onResponse", async (request, reply) => {
      if (request.faultOutcome || isAdminUrl(request)) return;
      recorder.record(routeKey(request), String(reply.statusCode));
    });
  });
}
