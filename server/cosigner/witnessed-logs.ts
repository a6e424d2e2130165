import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import { readCappedBody } from "../capped-body";
import { getConfig } from "../config";
import { logger } from "../observability/logger.mjs";
import { metrics } from "../observability/metrics.mjs";
import { getDb } from "../db";
import { processWide } from "../process-wide";
import { refusalOf } from "./bindings";
import { witnessIdentity } from "./identity";
import { type LogList, parseLogList, type SkippedEntry, type WitnessedLogEntry } from "./log-list";

/** A list fetched from a URL larger than this is refused (the network's largest staging list is far smaller). */
export const MAX_LOG_LIST_BYTES = 32 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;

/** The copy of the log list in use, and how it was read. */
export interface LogListView {
  /** HALLMARK_WITNESS_LOGS: a file, or an http(s) URL read again every HALLMARK_WITNESS_LOGS_REFRESH seconds. */
  source: string;
  /** The logs of the copy in use by origin; empty until a first copy was read. */
  logs: ReadonlyMap<string, WitnessedLogEntry>;
  skipped: readonly SkippedEntry[];
  /** The listed logs this witness refuses (bindings.ts), as of the last read. */
  refused: readonly { origin: string; reason: string }[];
  /** When the copy in use was read; null when none has been. */
  readAt: Date | null;
  /** Why the last read failed (the copy in use is then the last good one), or null. */
  lastError: string | null;
}

interface State {
  view: LogListView | null;
  digest: string | null;
  refusedDigest: string;
  checkedAt: number;
  reading: Promise<void> | null;
}

const isUrl = (source: string) => /^https?:\/\//i.test(source);

/** The list's text from a file or a URL (200 only, within MAX_LOG_LIST_BYTES and FETCH_TIMEOUT_MS). */
export async function readLogListText(source: string): Promise<string> {
  if (!isUrl(source)) return fs.readFile(source, "utf8");
  const res = await fetch(source, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: "text/plain" } });
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new Error(`${source} answered ${res.status}`);
  }
  const body = await readCappedBody(res, MAX_LOG_LIST_BYTES, () => new Error(`${source} is larger than ${MAX_LOG_LIST_BYTES} bytes`));
  return body.toString("utf8");
}

/** Reads and parses the list at `source`: what the admin command shows, and what the server uses. */
export async function readLogList(source: string): Promise<LogList & { digest: string }> {
  const text = await readLogListText(source);
  return { ...parseLogList(text), digest: createHash("sha256").update(text).digest("hex") };
}

const state = (): State =>
  processWide("witnessed-logs", () => ({ view: null, digest: null, refusedDigest: "", checkedAt: 0, reading: null }));

/** The logs of `logs` whose records this witness refuses (bindings.ts): one read of the records. */
export async function refusedLogs(logs: readonly WitnessedLogEntry[]): Promise<{ origin: string; reason: string }[]> {
  const { vkeys } = await witnessIdentity();
  const rows = new Map(
    (await getDb().read.witnessedLog.findMany({ select: { origin: true, logVkey: true, witnessVkeys: true } })).map((r) => [r.origin, r]),
  );
  return logs.flatMap((l) => {
    const reason = refusalOf(rows.get(l.origin) ?? null, l.vkey, vkeys);
    return reason ? [{ origin: l.origin, reason }] : [];
  });
}

/**
 * Reads the list again; on success it becomes the copy in use, on failure the last good copy
 * stays. Skipped entries are logged and counted once per new copy, failures each time.
 */
async function refresh(source: string): Promise<void> {
  const s = state();
  s.checkedAt = Date.now();
  try {
    const list = await readLogList(source);
    const refused = await refusedLogs(list.logs);
    const changed = list.digest !== s.digest;
    s.digest = list.digest;
    s.view = {
      source,
      logs: new Map(list.logs.map((l) => [l.origin, l])),
      skipped: list.skipped,
      refused,
      readAt: new Date(),
      lastError: null,
    };
    metrics.witnessLogListSkipped.set(list.skipped.length);
    metrics.witnessRefusedLogs.set(refused.length);
    const refusedDigest = JSON.stringify(refused);
    if (refusedDigest !== s.refusedDigest)
      for (const r of refused) logger.warn({ source, origin: r.origin, reason: r.reason }, "witness: log refused until retired");
    s.refusedDigest = refusedDigest;
    if (changed) {
      for (const e of list.skipped)
        logger.warn({ source, line: e.line, origin: e.origin, reason: e.reason }, "witness log list: entry skipped");
      logger.info({ source, logs: list.logs.length, skipped: list.skipped.length }, "witness log list read");
    }
  } catch (err) {
    const reason = (err as Error).message;
    metrics.witnessLogListFailures.inc();
    logger.warn({ source, err: reason, kept: s.view !== null }, "witness log list: read failed, the last good copy is kept");
    s.view = s.view
      ? { ...s.view, lastError: reason }
      : { source, logs: new Map(), skipped: [], refused: [], readAt: null, lastError: reason };
  }
}

/**
 * The log list in use, or null when HALLMARK_WITNESS_LOGS is not set. The first call waits for a
 * first read; later ones answer the copy in use at once and, once it is older than
 * HALLMARK_WITNESS_LOGS_REFRESH, start a read in the background (one at a time per process).
 */
export async function witnessedLogs(): Promise<LogListView | null> {
  const source = getConfig().witnessLogs;
  if (!source) return null;
  const s = state();
  const start = () => {
    s.reading ??= refresh(source).finally(() => {
      s.reading = null;
    });
    return s.reading;
  };
  if (!s.view) await start();
  else if (Date.now() - s.checkedAt > getConfig().witnessLogsRefreshSeconds * 1000) void start();
  return s.view;
}
