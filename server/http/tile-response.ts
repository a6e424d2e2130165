import "server-only";
import type { RouteResult } from "./api-route";
import { acceptsGzip, gzipImmutable } from "./gzip-cache";

/** Tiles never change once served (C2SP tlog-tiles): a year, immutable. */
const TILE_HEADERS = { "cache-control": "public, max-age=31536000, immutable", vary: "Accept-Encoding" };

/**
 * A tile's answer. Entry bundles are gzipped for a client that accepts it (hashes do not
 * compress, so tiles are sent as they are); the gate turns x-hallmark-content-encoding into
 * Content-Encoding (Next.js drops the latter).
 */
export function tileAnswer(bytes: Uint8Array, req: Request): RouteResult {
  if (new URL(req.url).pathname.includes("/tile/entries/") && acceptsGzip(req)) {
    return { body: gzipImmutable(bytes), headers: { ...TILE_HEADERS, "x-hallmark-content-encoding": "gzip" } };
  }
  return { body: bytes, headers: TILE_HEADERS };
}
