import { randomFillSync } from "node:crypto";
import { V7Generator } from "uuidv7";
import { keepingLast } from "../keeping-last";

/**
 * uuidv7's random source: node:crypto's CSPRNG drawn 1 KiB at a time. The library's default
 * refills 32 bytes per call through the global getRandomValues (which Next.js wraps), about
 * one call per identifier; the pool draws once per 256 numbers, and a batch mints many ids.
 */
class PooledRandom {
  private readonly pool = new Uint32Array(256);
  private at = this.pool.length;

  nextUint32(): number {
    if (this.at === this.pool.length) {
      randomFillSync(this.pool);
      this.at = 0;
    }
    return this.pool[this.at++]!;
  }
}

const generator = new V7Generator(new PooledRandom());
const DIGITS = Buffer.from("0123456789abcdef", "latin1");
/** The text of the id being formatted; the dashes never move. */
const text = Buffer.alloc(36, "-");

/**
 * The 8-4-4-4-12 lowercase form of 16 bytes, made as one string: the library's toString adds
 * its 36 characters one at a time (36 intermediate strings per id).
 */
function canonical(bytes: Uint8Array): string {
  let at = 0;
  for (let i = 0; i < 16; i++) {
    if (at === 8 || at === 13 || at === 18 || at === 23) at++;
    text[at++] = DIGITS[bytes[i]! >>> 4]!;
    text[at++] = DIGITS[bytes[i]! & 0xf]!;
  }
  return text.toString("latin1");
}

/** Time-ordered UUIDv7 identifiers (ARCHITECTURE.md, "Formats"), each greater than the one before. */
export const newId = (): string => canonical(generator.generate().bytes);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

/** ISO 8601 UTC with milliseconds (ARCHITECTURE.md, "Formats"). */
export const iso = keepingLast((date) => date.toISOString());
