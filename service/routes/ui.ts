// The web page (only with --ui / EMBEDDED_SERVICE_UI=1): GET /ui and its script, plain files
// of service/ui/ read from the checkout (the service is run from one; nothing to build).
// The page holds no data: it reads and changes everything through the admin API, whose key
// (x-admin-key) it takes from the URL's fragment. It answers loopback callers only, and its
// headers keep it from being framed, from loading anything else and from sending a Referer.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ApiError } from "../domain/errors";
import type { App } from "../context";

const UI_DIR = path.resolve(__dirname, "..", "..", "..", "service", "ui");

const HEADERS = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; " +
    "form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
};

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return v4.startsWith("127.") || address === "::1";
}

export function uiRoutes(app: App): void {
  const files = {
    "/ui": { type: "text/html; charset=utf-8", body: readFileSync(path.join(UI_DIR, "index.html"), "utf8") },
    "/ui/app.js": { type: "text/javascript; charset=utf-8", body: readFileSync(path.join(UI_DIR, "app.js"), "utf8") },
  };
  for (const [url, file] of Object.entries(files)) {
    app.get(url, { schema: { hide: true } }, async (request, reply) => {
      if (!isLoopback(request.socket.remoteAddress)) {
        throw new ApiError(
          403,
          "the web page answers loopback callers only (the service was bound to another address)",
        );
      }
      return reply.headers(HEADERS).type(file.type).send(file.body);
    });
  }
}
