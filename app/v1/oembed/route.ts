import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { publicRouter } from "@/server/api/routers/public";

// Public: oEmbed for share and verify URLs (?url=&format=json&maxwidth=&maxheight=).
export const GET = apiRoute(publicRouter.oembed);
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
