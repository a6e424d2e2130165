import "server-only";
import { processWide } from "../process-wide";
import { logger } from "../observability/logger.mjs";
import fs from "node:fs";
import { parseCertificates, verifyTimestampToken } from "@/lib/verify/rfc3161";
import { getConfig } from "../config";
import { getDb, isUniqueViolation } from "../db";
import { getStore } from "../store";
import { requestTimestamp } from "./tsa-client";
import { localOf, positionOf } from "../merkle/positions";
import { getShards } from "./shards";

/**
 * Time-stamping (RFC 3161): the newest checkpoint's signed note, exactly as the log signed it, is
 * sent to the TSA named by HALLMARK_TSA_URL, and the token it grants is stored with the
 * checkpoint's size. Proof bundles carry the token of the earliest stamped checkpoint that holds
 * their entry: the entry existed no later than the TSA's time, on the TSA's word, not Hallmark's.
 *
 * Contract:
 * - Never on the write path: a timer, at most one request per HALLMARK_TSA_INTERVAL seconds,
 *   and none while the log has not grown since the last stamped size.
 * - A token is stored only when granted over that note with this request's nonce
 *   (tsa-client.ts), when it chains to HALLMARK_TSA_CERT (required with the URL), and when its
 *   time is within CLOCK_SKEW_MS of the span from the checkpoint's making to now: the earliest
 *   token is the one bundles carry, so a wrong one must never get in.
 * - A TSA that fails (down, refusing, answering nonsense) is retried with exponential backoff
 *   up to MAX_BACKOFF_MS and holds up nothing. Instances may each stamp a size now and then;
 *   the row's key keeps the first.
 */
const MAX_BACKOFF_MS = 10 * 60_000;
const CLOCK_SKEW_MS = 5 * 60_000;
type TimestampingState = { timer: NodeJS.Timeout | undefined; round: Promise<void>; stopped: boolean };
const running = processWide("timestamping", () => ({ state: undefined as TimestampingState | undefined }));

/** HALLMARK_TSA_CERT's text, read once: what /v1/log publishes for verifiers to compare with their own pin. */
let pem: string | undefined;
export function tsaCertificatePem(): string {
  const file = getConfig().tsaCertFile;
  if (!file) throw new Error("HALLMARK_TSA_CERT is not set");
  pem ??= fs.readFileSync(file, "utf8");
  return pem;
}

/** The pinned certificates of HALLMARK_TSA_CERT, parsed once. */
let pinned: ReturnType<typeof parseCertificates> | undefined;
function pinnedCertificates() {
  pinned ??= parseCertificates(tsaCertificatePem());
  return pinned;
}

/** The largest checkpoint size with a token; 0 before the first. */
export async function newestStampedSize(): Promise<bigint> {
  const newest = await getDb().read.checkpointTimestamp.findFirst({ orderBy: { treeSize: "desc" }, select: { treeSize: true } });
  return newest?.treeSize ?? 0n;
}

/**
 * What the token of the checkpoint of `origin`'s log (a shard, server/merkle/positions.ts) of size `treeSize`
 * states, as checked when it was stored; null without one.
 */
export async function stampStatement(origin: string, treeSize: number): Promise<{ existed_by: string; tsa: string } | null> {
  const shard = (await getShards()).find((s) => s.origin === origin);
  if (!shard) return null;
  const row = await getDb().read.checkpointTimestamp.findUnique({
    where: { treeSize: BigInt(positionOf(shard.shard, treeSize)) },
    select: { genTime: true, tsa: true },
  });
  return row && { existed_by: row.genTime.toISOString(), tsa: row.tsa };
}

/** One round: stamps the newest checkpoint if it is larger than the newest stamped one. Answers whether it stored a token. */
export async function timestampRound(url: string): Promise<boolean> {
  const cp = await getStore().reads.latestCheckpoint();
  if (!cp || localOf(cp.treeSize) === 0) return false;
  if ((await newestStampedSize()) >= cp.treeSize) return false;
  const note = new TextEncoder().encode(cp.note);
  const token = await requestTimestamp(url, note);
  const stamped = await verifyTimestampToken(token, note, pinnedCertificates());
  const t = stamped.genTime.getTime();
  if (t < cp.timestamp.getTime() - CLOCK_SKEW_MS || t > Date.now() + CLOCK_SKEW_MS)
    throw new Error(`the TSA's time ${stamped.genTime.toISOString()} is not between the checkpoint's making and now`);
  try {
    await getDb().write((tx) =>
      tx.checkpointTimestamp.create({
        data: { treeSize: cp.treeSize, token: Uint8Array.from(token), genTime: stamped.genTime, tsa: stamped.tsa },
      }),
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  return true;
}

/** Starts time-stamping in this process if HALLMARK_TSA_URL is set (idempotent). */
export function startTimestamping(): void {
  const { tsaUrl, tsaIntervalSeconds } = getConfig();
  if (!tsaUrl || running.state) return;
  const interval = tsaIntervalSeconds * 1000;
  let failures = 0;
  const state: TimestampingState = { timer: undefined, round: Promise.resolve(), stopped: false };
  const schedule = (ms: number) => {
    if (state.stopped) return;
    state.timer = setTimeout(() => (state.round = run()), ms);
    state.timer.unref();
  };
  const run = async () => {
    try {
      await timestampRound(tsaUrl);
      failures = 0;
    } catch (err) {
      failures++;
      logger.error({ failures, err: (err as Error).message }, "time-stamping failed");
    }
    schedule(failures ? Math.max(interval, Math.min(MAX_BACKOFF_MS, interval * 2 ** Math.min(failures, 20))) : interval);
  };
  running.state = state;
  schedule(Math.min(interval, 1_000));
}

/** Stops time-stamping in this process (at shutdown), after the round under way. */
export async function stopTimestamping(): Promise<void> {
  const state = running.state;
  if (!state) return;
  state.stopped = true;
  clearTimeout(state.timer);
  await state.round;
}
