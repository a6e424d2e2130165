import "server-only";
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { processWide } from "../process-wide";

/** Cards kept per process, and the bytes they may take (a card is 15-40 KB). */
export const CARD_CACHE_ENTRIES = 512;
export const CARD_CACHE_BYTES = 24 * 1024 * 1024;
/** Renders waiting for their turn beyond the one running; one more request is refused at once. */
export const CARD_QUEUE_LENGTH = 16;
/** How long a request waits for its card, its turn included; then it is refused (503). */
export const CARD_DEADLINE_MS = 10_000;

/** A card that could not be drawn in time, or a queue that is full: answered 503 with Retry-After. */
export class CardBusy extends Error {
  constructor() {
    super("The image renderer is busy");
  }
}

type Render = () => Promise<Uint8Array>;

/**
 * Renders one at a time: a render is synchronous work on the event loop for most of its time,
 * so two at once finish no sooner, and the memory in use is one render's.
 */
class OneAtATime {
  private running = false;
  private readonly waiting: (() => void)[] = [];

  async run<T>(deadline: number, fn: () => Promise<T>): Promise<T> {
    if (this.running) {
      if (this.waiting.length >= CARD_QUEUE_LENGTH) throw new CardBusy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running = true;
    try {
      // Its requester has been answered 503 already: no work for nobody.
      if (Date.now() > deadline) throw new CardBusy();
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running = false;
    }
  }
}

interface CardCache {
  lru: LRUCache<string, Uint8Array, Render>;
  queue: OneAtATime;
}

const cardCache = () =>
  processWide<CardCache>("og-card-cache", () => {
    const queue = new OneAtATime();
    return {
      queue,
      // fetch() runs one render per key however many requests ask for it at once.
      lru: new LRUCache<string, Uint8Array, Render>({
        max: CARD_CACHE_ENTRIES,
        maxSize: CARD_CACHE_BYTES,
        sizeCalculation: (png) => Math.max(1, png.byteLength),
        fetchMethod: (_key, _stale, { context }) => context(),
      }),
    };
  });

/** The strong validator of a card: a digest of everything it draws. */
export const cardTag = (content: unknown): string =>
  `"${createHash("sha256").update(JSON.stringify(content)).digest("base64url").slice(0, 32)}"`;

/**
 * The PNG for `tag` (cardTag of what it draws), from the cache or drawn by `render` in its turn;
 * CardBusy when the queue is full or the card is not ready within CARD_DEADLINE_MS.
 */
export async function cachedCard(tag: string, render: Render): Promise<Uint8Array> {
  const { lru, queue } = cardCache();
  const hit = lru.get(tag);
  if (hit) return hit;
  const deadline = Date.now() + CARD_DEADLINE_MS;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CardBusy()), CARD_DEADLINE_MS);
  });
  try {
    const drawn = lru.fetch(tag, { context: () => queue.run(deadline, render) }) as Promise<Uint8Array>;
    // A render that fails after its requester left must not surface as an unhandled rejection.
    drawn.catch(() => {});
    return await Promise.race([drawn, late]);
  } finally {
    clearTimeout(timer);
  }
}
