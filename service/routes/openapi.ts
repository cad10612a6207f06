// GET /es/v2/openapi.json: the document generated from the route schemas.
import type { App } from "../context";

export function openapiRoutes(app: App): void {
  app.get("/es/v2/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
