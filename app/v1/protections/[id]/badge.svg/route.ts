import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { publicRouter } from "@/server/api/routers/public";

// Public: a protection's SVG badge (?theme=light|dark). It never changes, so caches may keep it a day.
export const GET = apiRoute(publicRouter.badge, (svg) => ({
  body: svg,
  headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "public, max-age=86400" },
}));
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
