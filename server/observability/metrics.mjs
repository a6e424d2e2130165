// @ts-check
// Prometheus metrics through prom-client, in one registry that scripts/serve.mjs (the HTTP
// series) and the bundled server code (the sequencer's, the log's, the database's) share: it
// lives on globalThis. Served as Prometheus text at /metrics, only with HALLMARK_METRICS_TOKEN
// (scripts/serve.mjs). Labels are bounded: a route is its pattern, never a path.
import client from "prom-client";

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function make() {
  const register = new client.Registry();
  client.collectDefaultMetrics({ register });
  const registers = [register];
  return {
    register,
    httpRequests: new client.Counter({
      name: "hallmark_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status (499: the client went away first).",
      labelNames: ["method", "route", "status"],
      registers,
    }),
    httpDuration: new client.Histogram({
      name: "hallmark_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by method, route pattern and status.",
      labelNames: ["method", "route", "status"],
      buckets: SECONDS,
      registers,
    }),
    problems: new client.Counter({
      name: "hallmark_problems_total",
      help: "Problem answers by code: rate_limited, daily_quota_exceeded and quota_exceeded are the limit refusals.",
      labelNames: ["code"],
      registers,
    }),
    sequencerBatch: new client.Histogram({
      name: "hallmark_sequencer_batch_entries",
      help: "Entries per append transaction of this instance's sequencer.",
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers,
    }),
    sequencerAppend: new client.Histogram({
      name: "hallmark_sequencer_append_seconds",
      help: "Time to append and commit one batch (its transaction), successful or not.",
      labelNames: ["outcome"],
      buckets: SECONDS,
      registers,
    }),
    witnessSubmissions: new client.Counter({
      name: "hallmark_witness_submissions_total",
      help: "add-checkpoint requests to the policy's witnesses, by witness name and outcome (cosigned, conflict, inconsistent, failed).",
      labelNames: ["witness", "outcome"],
      registers,
    }),
    witnessAlerts: new client.Counter({
      name: "hallmark_witness_alerts_total",
      help: "Answers that may show the log misbehaving, by witness and kind: inconsistent (a 422, kept as evidence), ahead (the witness holds a larger size than the log). Alert on any increase.",
      labelNames: ["witness", "kind"],
      registers,
    }),
    witnessLogListSkipped: new client.Gauge({
      name: "hallmark_witness_log_list_skipped_entries",
      help: "Entries of HALLMARK_WITNESS_LOGS this instance, as a witness, skips as unusable in the copy it uses (npm run admin -- witnesses names them).",
      registers,
    }),
    witnessRefusedLogs: new client.Gauge({
      name: "hallmark_witness_refused_logs",
      help: "Logs of HALLMARK_WITNESS_LOGS this witness refuses: its record of each is bound to another log key (the list changed it) or other witness keys, until an operator retires the origin.",
      registers,
    }),
    witnessLogListFailures: new client.Counter({
      name: "hallmark_witness_log_list_failures_total",
      help: "Reads of HALLMARK_WITNESS_LOGS that failed (unreachable, not 200, not a logs/v0 list); the last good copy stays in use.",
      registers,
    }),
  };
}

/** The process's slot for the metrics (one for every copy of this module). */
const shared = /** @type {{ __hallmarkMetrics?: ReturnType<typeof make> }} */ (globalThis);
export const metrics = (shared.__hallmarkMetrics ??= make());
export { client };
