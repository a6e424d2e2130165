import "server-only";
import { LRUCache } from "lru-cache";
import { sha256Hex } from "../../crypto/hash";
import { processWide } from "../../process-wide";
import type { CertificateData } from "./certificate";
import { certificatePdf } from "./certificate-pdf";

const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Drawn certificates by the SHA-256 of everything they are drawn from (the public view, the
 * proof bundle with its checkpoint and cosignatures, the timestamp): the same data draws the same
 * certificate, and any change (a newer checkpoint, a new cosignature) is another entry, so an
 * entry is never stale. Bounded in bytes, as certificates differ in size.
 */
const drawn = processWide("certificate-pdfs", () => ({
  cache: new LRUCache<string, Buffer>({ maxSize: MAX_BYTES, sizeCalculation: (pdf) => pdf.byteLength }),
  pending: new Map<string, Promise<Buffer>>(),
}));

/**
 * certificatePdf, drawn once per distinct data while it stays cached: while the log does not
 * move, repeated downloads and exports cost a hash instead of a drawing. Requests
 * for the same certificate at once share one drawing.
 */
export async function cachedCertificatePdf(d: CertificateData): Promise<Buffer> {
  const key = sha256Hex(JSON.stringify(d));
  const hit = drawn.cache.get(key);
  if (hit) return hit;
  let pending = drawn.pending.get(key);
  if (!pending) {
    pending = certificatePdf(d)
      .then((pdf) => {
        drawn.cache.set(key, pdf);
        return pdf;
      })
      .finally(() => drawn.pending.delete(key));
    drawn.pending.set(key, pending);
  }
  return pending;
}
