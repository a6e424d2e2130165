import "server-only";
import { sha256Hex } from "../crypto/hash";
import { canonicalJson } from "@/lib/verify/jcs";
import type { BatchScope } from "../log/log-append";
import type { EntryWriter, IdempotencyRecord } from "../store/types";
import { AppError } from "../errors";
import { parseJson } from "@/lib/verify/json-parse";

/** A finished answer is replayed for this long; afterwards the key may be used afresh. */
const RECORD_TTL_MS = 24 * 3600 * 1000;

const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

/** The Idempotency-Key header value, or null when none was sent; 400 when malformed. */
export function parseIdempotencyKey(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!KEY_SHAPE.test(value)) {
    throw new AppError("invalid_parameter", "The Idempotency-Key header must be 1 to 255 printable ASCII characters.");
  }
  return value;
}

/** SHA-256 (hex) of the RFC 8785 canonical JSON of the request body. */
export const requestHashOf = (body: unknown): string => sha256Hex(canonicalJson(body ?? null));

export interface IdempotentRequest {
  tenantId: string;
  key: string;
  requestHash: string;
}

/** The answer a request with an Idempotency-Key gets when the key already has one: the first. */
export class IdempotentReplay {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

const reused = () => new AppError("idempotency_key_reused", "This Idempotency-Key was already used with a different request body.");

/**
 * The stored answer for the request's key, or null when the key is free: never used, expired,
 * or the in-flight mark (status 0) of an earlier version's attempt that never finished.
 * Another body under the same key is 422 idempotency_key_reused.
 */
function replayOf(row: IdempotencyRecord | null, req: IdempotentRequest): IdempotentReplay | null {
  if (!row || row.status === 0 || Date.now() - row.createdAt.getTime() > RECORD_TTL_MS) return null;
  if (row.requestHash !== req.requestHash) throw reused();
  return new IdempotentReplay(row.status, parseJson(row.response));
}

const scopeKey = (req: IdempotentRequest) => `idempotency\n${req.tenantId}\n${req.key}`;
type Held = { requestHash: string; answer: IdempotentReplay };

/**
 * Inside the append (the log locked, so no other request can take the key meanwhile): throws
 * the first answer when the key has one, committed or earlier in this batch, or 422 for another
 * body. Writes nothing.
 */
export async function checkIdempotencyKey(w: EntryWriter, batch: BatchScope, req: IdempotentRequest): Promise<void> {
  const held = batch.get(scopeKey(req)) as Held | undefined;
  if (held) {
    if (held.requestHash !== req.requestHash) throw reused();
    throw held.answer;
  }
  const replay = replayOf(await w.idempotencyRecord(req.tenantId, req.key), req);
  if (replay) throw replay;
}

/** Marks the key taken in this batch by an admitted entry whose answer is `status`/`body`. */
export function holdIdempotencyKey(batch: BatchScope, req: IdempotentRequest, status: number, body: unknown): void {
  batch.set(scopeKey(req), { requestHash: req.requestHash, answer: new IdempotentReplay(status, body) } satisfies Held);
}

/** Stores the answer with the request's effect, in its transaction. */
export async function storeIdempotentAnswer(
  w: EntryWriter,
  req: IdempotentRequest,
  status: number,
  body: unknown,
  at: Date,
): Promise<void> {
  await w.putIdempotencyRecord({
    tenantId: req.tenantId,
    key: req.key,
    requestHash: req.requestHash,
    status,
    response: JSON.stringify(body),
    createdAt: at,
  });
}
