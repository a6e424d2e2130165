import { acceptsGzip, gzipImmutable } from "@/server/http/gzip-cache";
import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

/** Tiles never change once served (C2SP tlog-tiles): a year, immutable. */
const TILE_HEADERS = {
  "content-type": "application/octet-stream",
  "cache-control": "public, max-age=31536000, immutable",
  vary: "Accept-Encoding",
};

/**
 * `/v1/log/tile/<L>/<N>[.p/<W>]` and `/v1/log/tile/entries/<N>[.p/<W>]`. Entry bundles are
 * gzipped for a client that accepts it (hashes do not compress, so tiles are sent as they are);
 * the gate turns x-hallmark-content-encoding into Content-Encoding (Next.js drops the latter).
 */
export const GET = apiRoute({ auth: "optional" }, async ({ caller, params, req }) => {
  const path = params.path ?? "";
  const bytes = await caller.log.tile({ path: path.split("/") });
  if (path.startsWith("entries/") && acceptsGzip(req)) {
    return new Response(gzipImmutable(path, bytes) as Uint8Array<ArrayBuffer>, {
      headers: { ...TILE_HEADERS, "x-hallmark-content-encoding": "gzip" },
    });
  }
  return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: TILE_HEADERS });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
