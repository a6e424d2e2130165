export type HallmarkEnv = {
  nodeEnv: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  dbKind: "sqlite" | "postgres";
  baseUrl: string;
  logOrigin: string;
  logOriginExplicit: boolean;
  masterKey: string | undefined;
  /** SMTP server for outgoing mail; without one, mail is written to <data dir>/outbox. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Shared store for rate limits across instances; without one, limits are per instance. */
  redisUrl: string | undefined;
  /** Reverse proxies in front of Hallmark that append to X-Forwarded-For (server/gate/client-address.mjs). */
  trustedProxies: number;
  /** A C2SP tlog-policy file naming the witnesses that cosign the log's checkpoints, and their quorum. */
  witnessPolicyFile: string | undefined;
  /** What /v1/log/checkpoint serves under a witness policy (HALLMARK_WITNESS_MODE). */
  witnessMode: "fail-closed" | "fail-open";
  /** add-checkpoint requests per witness per day (HALLMARK_WITNESS_RATE, the witness network's qpd). */
  witnessQpd: number;
  /** The logs this instance witnesses: a logs/v0 file (HALLMARK_WITNESS_LOGS), or none. */
  witnessLogsFile: string | undefined;
  /** This instance's name as a witness (HALLMARK_WITNESS_NAME; default <base URL host and path>/witness). */
  witnessName: string;
  /** An RFC 3161 time-stamping authority: the newest checkpoint is time-stamped there at most once per tsaIntervalSeconds. */
  tsaUrl: string | undefined;
  /** PEM certificate(s) the TSA's tokens must chain to (its root or its own); required with tsaUrl. */
  tsaCertFile: string | undefined;
  tsaIntervalSeconds: number;
  /** pino's level for the server's JSON log lines (stdout). */
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Bearer token that /metrics requires; without one, /metrics is not served. */
  metricsToken: string | undefined;
  /** V8's old-space limit for the server process, in MB (serverNodeArgs). */
  heapMb: number;
  /** SQLite's page cache per connection, in MB (server/sqlite-pragmas.mjs). */
  sqliteCacheMb: number;
  /** How much of the SQLite file each connection maps, in MB; 0 maps nothing (server/sqlite-pragmas.mjs). */
  sqliteMmapMb: number;
  /** Lookups per minute, per client address and per account (server/limits/client-limits.ts). */
  lookupsPerMinute: number;
  /** Certificates per minute, per client address and per account. */
  certificatesPerMinute: number;
  /** Exports per hour, per client address and per account. */
  exportsPerHour: number;
};
export function readEnv(source?: Record<string, string | undefined>): HallmarkEnv;
export function readEnvOrExit(): HallmarkEnv;
export function serverNodeArgs(source?: Record<string, string | undefined>): string[];
