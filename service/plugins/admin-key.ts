// The admin API (routes with config.auth "admin") needs the header x-admin-key; compared in
// constant time. The later plugins leave admin requests alone.
import { createHash, timingSafeEqual } from "node:crypto";
import { ApiError } from "../domain/errors";
import { appPlugin } from "./plugin";

const digest = (s: string) => createHash("sha256").update(s).digest();

export function adminKey(key: string | undefined) {
  return appPlugin("admin-key", (app) => {
    app.addHook("onRequest", async (request) => {
      if (request.routeOptions.config.auth !== "admin") return;
      const given = request.headers["x-admin-key"];
      const valid = typeof given === "string" && key !== undefined && timingSafeEqual(digest(given), digest(key));
      if (!valid) throw new ApiError(401, "missing or wrong x-admin-key");
    });
  });
}
