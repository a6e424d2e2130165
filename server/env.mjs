// @ts-check
// The environment, validated once with zod. Plain ESM so that next.config.js, the start script
// and the server all read the same rules: a bad value fails the build or the start, not a request.
import path from "node:path";
import { z } from "zod";

const ZPort = z.coerce.number().int().min(1).max(65535);
const ZMasterKey = z
  .string()
  .trim()
  .refine((v) => /^[0-9a-f]{64}$/i.test(v) || Buffer.from(v, "base64").length === 32, {
    message: "must be 32 bytes as 64 hex characters or base64",
  });
const ZOrigin = z
  .string()
  .min(1)
  .max(255)
  .refine((v) => !/[\s+]/u.test(v), { message: "must contain no spaces and no '+'" });

const ZEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: ZPort.default(3000),
  HALLMARK_DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), {
      message: "must start with file: (SQLite) or postgres:// / postgresql://",
    })
    .optional(),
  HALLMARK_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  HALLMARK_LOG_ORIGIN: ZOrigin.optional(),
  HALLMARK_MASTER_KEY: ZMasterKey.optional(),
  HALLMARK_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  HALLMARK_MAIL_FROM: z.string().min(3).default("Hallmark <no-reply@hallmark.local>"),
  HALLMARK_KEY_NOTICE_DIGEST_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  HALLMARK_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  HALLMARK_TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
  HALLMARK_WITNESS_POLICY: z.string().min(1).optional(),
  // What /v1/log/checkpoint serves under a witness policy: fail-closed (default) only a checkpoint
  // the quorum cosigned; fail-open the newest, with the cosignatures it has so far.
  HALLMARK_WITNESS_MODE: z.enum(["fail-closed", "fail-open"]).default("fail-closed"),
  // add-checkpoint requests per witness per day the log declares (the witness network's qpd):
  // rounds are spaced 86,400 s / qpd apart, and never less than a second.
  HALLMARK_WITNESS_RATE: z.coerce.number().int().min(1).max(86_400).default(86_400),
  HALLMARK_WITNESS_REFRESH: z.coerce.number().int().min(1).max(86_400).default(240),
  // This instance as a witness (C2SP tlog-witness, at {base_url}/v1/witness): the logs it
  // witnesses, a list in the witness network's logs/v0 format (a file, or an http(s) URL read
  // again every HALLMARK_WITNESS_LOGS_REFRESH seconds), and its name.
  HALLMARK_WITNESS_LOGS: z.string().min(1).optional(),
  HALLMARK_WITNESS_LOGS_REFRESH: z.coerce.number().int().min(1).max(86_400).default(300),
  HALLMARK_WITNESS_NAME: ZOrigin.optional(),
  // This instance's witness keys' seeds (server/cosigner/witness-key.ts); default <data dir>/witness.key.
  HALLMARK_WITNESS_KEY_FILE: z.string().min(1).optional(),
  // add-checkpoint requests that fail (400, 403, 404, 422) per client address per minute.
  HALLMARK_WITNESS_FAILURES: z.coerce.number().int().min(1).max(1_000_000).default(60),
  HALLMARK_TSA_URL: z.url({ protocol: /^https?$/ }).optional(),
  HALLMARK_TSA_CERT: z.string().min(1).optional(),
  HALLMARK_TSA_INTERVAL: z.coerce.number().int().min(1).max(86_400).default(60),
  HALLMARK_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  HALLMARK_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").max(256).optional(),
  HALLMARK_HEAP_MB: z.coerce.number().int().min(128).max(65_536).default(512),
  HALLMARK_SQLITE_CACHE_MB: z.coerce.number().int().min(1).max(4096).default(64),
  // SQLite's own ceiling on a map is just under 2 GiB (SQLITE_MAX_MMAP_SIZE, 0x7fff0000).
  HALLMARK_SQLITE_MMAP_MB: z.coerce.number().int().min(0).max(2047).default(0),
  // The expensive endpoints' budgets, each per client address and per account (server/limits/client-limits.ts).
  HALLMARK_LOOKUPS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  HALLMARK_CERTIFICATES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  HALLMARK_EXPORTS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(10),
  // For test runs only: shifts the calendar quotas and budgets count in (server/limits/calendar.ts).
  HALLMARK_TEST_CLOCK_OFFSET_MS: z.coerce.number().int().min(-1e11).max(1e11).default(0),
});

/**
 * The configuration as the server reads it, derived from readEnv (and so from ZEnv): what .ts
 * files import as `import type { HallmarkEnv } from "@/server/env.mjs"`.
 * @typedef {ReturnType<typeof readEnv>} HallmarkEnv
 */

/** For command-line entry points: the environment, or the process ends with the message naming what is wrong. */
export function readEnvOrExit() {
  try {
    return readEnv();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}

/**
 * The configuration in `source` (default: the process's environment), validated; throws naming
 * every variable that is wrong.
 * @param {Record<string, string | undefined>} [source]
 */
export function readEnv(source = process.env) {
  const parsed = ZEnv.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid Hallmark configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  // A token is stated as a fact (on certificates, in bundles) only if it chains to a pinned certificate.
  if (e.HALLMARK_TSA_URL && !e.HALLMARK_TSA_CERT)
    throw new Error(
      "Invalid Hallmark configuration:\n  HALLMARK_TSA_CERT: required with HALLMARK_TSA_URL (the TSA's root or certificate, PEM)",
    );
  const dataDir = path.resolve(e.HALLMARK_DATA_DIR);
  const databaseUrl = e.DATABASE_URL ?? `file:${path.join(dataDir, "hallmark.db")}`;
  const baseUrl = (e.HALLMARK_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const u = new URL(baseUrl);
  const derivedOrigin = (u.host + u.pathname).replace(/\/+$/, "");
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    dataDir,
    databaseUrl,
    dbKind: /** @type {"sqlite" | "postgres"} */ (databaseUrl.startsWith("file:") ? "sqlite" : "postgres"),
    baseUrl,
    logOrigin: e.HALLMARK_LOG_ORIGIN ?? derivedOrigin,
    logOriginExplicit: e.HALLMARK_LOG_ORIGIN !== undefined,
    masterKey: e.HALLMARK_MASTER_KEY,
    /** SMTP server for outgoing mail; without one, mail is written to <data dir>/outbox. */
    smtpUrl: e.HALLMARK_SMTP_URL,
    mailFrom: e.HALLMARK_MAIL_FROM,
    /** After a new-key notice, how long further keys of the account gather into one digest (0: each mailed at once). */
    keyNoticeDigestSeconds: e.HALLMARK_KEY_NOTICE_DIGEST_SECONDS,
    /** Shared store for rate limits across instances; without one, limits are per instance. */
    redisUrl: e.HALLMARK_REDIS_URL,
    /** Reverse proxies in front of Hallmark that append to X-Forwarded-For (server/gate/client-address.mjs). */
    trustedProxies: e.HALLMARK_TRUSTED_PROXIES,
    /** A C2SP tlog-policy file naming the witnesses that cosign the log's checkpoints, and their quorum. */
    witnessPolicyFile: e.HALLMARK_WITNESS_POLICY ? path.resolve(e.HALLMARK_WITNESS_POLICY) : undefined,
    /** What /v1/log/checkpoint serves under a witness policy (HALLMARK_WITNESS_MODE). */
    witnessMode: e.HALLMARK_WITNESS_MODE,
    /** add-checkpoint requests per witness per day (HALLMARK_WITNESS_RATE, the witness network's qpd). */
    witnessQpd: e.HALLMARK_WITNESS_RATE,
    /** Seconds a witness's cosignature of the newest checkpoint stays fresh before the log asks it again (HALLMARK_WITNESS_REFRESH). */
    witnessRefreshSeconds: e.HALLMARK_WITNESS_REFRESH,
    /** The logs this instance witnesses (HALLMARK_WITNESS_LOGS): a logs/v0 list's http(s) URL, or its file's absolute path; or none. */
    witnessLogs: e.HALLMARK_WITNESS_LOGS
      ? /^https?:\/\//i.test(e.HALLMARK_WITNESS_LOGS)
        ? e.HALLMARK_WITNESS_LOGS
        : path.resolve(e.HALLMARK_WITNESS_LOGS)
      : undefined,
    /** Seconds after which the log list is read again (HALLMARK_WITNESS_LOGS_REFRESH). */
    witnessLogsRefreshSeconds: e.HALLMARK_WITNESS_LOGS_REFRESH,
    /** This instance's name as a witness (HALLMARK_WITNESS_NAME; default <base URL host and path>/witness). */
    witnessName: e.HALLMARK_WITNESS_NAME ?? `${derivedOrigin}/witness`,
    /** The file of this instance's witness keys' seeds (HALLMARK_WITNESS_KEY_FILE), made on first start. */
    witnessKeyFile: e.HALLMARK_WITNESS_KEY_FILE ? path.resolve(e.HALLMARK_WITNESS_KEY_FILE) : path.join(dataDir, "witness.key"),
    /** Failed add-checkpoint requests per client address per minute (server/cosigner/budgets.ts). */
    witnessFailuresPerMinute: e.HALLMARK_WITNESS_FAILURES,
    /** An RFC 3161 time-stamping authority: the newest checkpoint is time-stamped there at most once per tsaIntervalSeconds. */
    tsaUrl: e.HALLMARK_TSA_URL,
    /** PEM certificate(s) the TSA's tokens must chain to (its root or its own); required with tsaUrl. */
    tsaCertFile: e.HALLMARK_TSA_CERT ? path.resolve(e.HALLMARK_TSA_CERT) : undefined,
    tsaIntervalSeconds: e.HALLMARK_TSA_INTERVAL,
    /** pino's level for the server's JSON log lines (stdout). */
    logLevel: e.HALLMARK_LOG_LEVEL,
    /** Bearer token that /metrics requires; without one, /metrics is not served. */
    metricsToken: e.HALLMARK_METRICS_TOKEN,
    /** V8's old-space limit for the server process, in MB (serverNodeArgs). */
    heapMb: e.HALLMARK_HEAP_MB,
    /** SQLite's page cache per connection, in MB (server/sqlite-pragmas.mjs). */
    sqliteCacheMb: e.HALLMARK_SQLITE_CACHE_MB,
    /** How much of the SQLite file each connection maps, in MB; 0 maps nothing (server/sqlite-pragmas.mjs). */
    sqliteMmapMb: e.HALLMARK_SQLITE_MMAP_MB,
    /** Lookups per minute, per client address and per account (server/limits/client-limits.ts). */
    lookupsPerMinute: e.HALLMARK_LOOKUPS_PER_MINUTE,
    /** Certificates per minute, per client address and per account. */
    certificatesPerMinute: e.HALLMARK_CERTIFICATES_PER_MINUTE,
    /** Exports per hour, per client address and per account. */
    exportsPerHour: e.HALLMARK_EXPORTS_PER_HOUR,
    /** Milliseconds added to the wall clock where quotas and budgets reckon a UTC day or month (tests only). */
    testClockOffsetMs: e.HALLMARK_TEST_CLOCK_OFFSET_MS,
  };
}

/**
 * The node flags the server process starts with, in the environment `source` it will have:
 * V8's old-space limit from HALLMARK_HEAP_MB, unless its NODE_OPTIONS already sets one (the
 * operator's own wins). Node's default limit is a share of the machine's memory, and V8 grows a
 * heap with a large limit by larger steps: under a steady load the server then holds several
 * times its live heap. A limit of 512 MB keeps it close to the live heap (measured:
 * docs/performance.md, Memory).
 * @param {Record<string, string | undefined>} [source]
 * @returns {string[]}
 */
export function serverNodeArgs(source = process.env) {
  if (/--max-old-space-size\b/.test(source.NODE_OPTIONS ?? "")) return [];
  return [`--max-old-space-size=${readEnv(source).heapMb}`];
}
