import "server-only";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { LRUCache } from "lru-cache";
import { processWide } from "../process-wide";

/**
 * Gzip for immutable bodies (tiles, entry bundles): each is compressed once per process and
 * kept, bounded by bytes, under its own SHA-256 (one path names different bodies in different
 * shards of the log, so a path is no key).
 */
const compressed = processWide(
  "gzip-cache",
  () => new LRUCache<string, Uint8Array>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (b) => Math.max(1, b.length) }),
);

/** The cache's fill, for /metrics. */
export const gzipCacheUse = () => ({ entries: compressed.size, bytes: compressed.calculatedSize });

export function acceptsGzip(req: Request): boolean {
  const accept = req.headers.get("accept-encoding") ?? "";
  return /(^|,)\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[0-9.]+)?\s*(,|$)/i.test(accept);
}

export function gzipImmutable(body: Uint8Array): Uint8Array {
  const key = createHash("sha256").update(body).digest("base64");
  let hit = compressed.get(key);
  if (!hit) {
    hit = new Uint8Array(gzipSync(body));
    compressed.set(key, hit);
  }
  return hit;
}
