import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { logRouter } from "@/server/api/routers/log";
import { acceptsGzip, gzipImmutable } from "@/server/http/gzip-cache";

/** Tiles never change once served (C2SP tlog-tiles): a year, immutable. */
const TILE_HEADERS = { "cache-control": "public, max-age=31536000, immutable", vary: "Accept-Encoding" };

/**
 * Entry bundles are gzipped for a client that accepts it (hashes do not compress, so tiles are
 * sent as they are); the gate turns x-hallmark-content-encoding into Content-Encoding (Next.js
 * drops the latter).
 */
export const GET = apiRoute(logRouter.tile, (bytes, req) => {
  const path = new URL(req.url).pathname.slice("/v1/log/tile/".length);
  if (path.startsWith("entries/") && acceptsGzip(req)) {
    return { body: gzipImmutable(path, bytes), headers: { ...TILE_HEADERS, "x-hallmark-content-encoding": "gzip" } };
  }
  return { body: bytes, headers: TILE_HEADERS };
});
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
