// @hallmark-test db=sqlite,postgres lane=second-server
// What an operator relies on: every answer carries an X-Request-Id that its problem body and
// its log line name; /healthz and /readyz; /metrics behind its token, with the request,
// sequencer, log and refusal series; one JSON log line per request that never holds a key, a
// token or a password; readiness that turns 503 when the database is gone.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import pg from "pg";
import { postgresAdminUrl } from "@/server/test-support/postgres-admin-url.mjs";
import { afterAll, describe, expect, it } from "vitest";
import { api, attest, baseUrl, createKey, dbKind, expectProblem, orgWithIssuer } from "./helpers";
import { OwnServer, ownSqliteEnv } from "./own-server";
import { seedConsumer } from "../accounts";

const METRICS_TOKEN = process.env.HALLMARK_METRICS_TOKEN!;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-ops-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Prometheus text: the value of the sample `name{labels}` (labels in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

const scrape = async (url = baseUrl) => (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

describe(`operations (${dbKind})`, () => {
  it("gives every answer an X-Request-Id, keeps a caller's plain one, and names it in problem bodies", async () => {
    const mine = `trace-${crypto.randomUUID()}`;
    const res = await api("/v1/attestations/00000000-0000-4000-8000-000000000000", { headers: { "x-request-id": mine } });
    expectProblem(res, 401, "unauthenticated");
    expect(res.headers.get("x-request-id")).toBe(mine);
    expect(res.body.request_id).toBe(mine);
    // A value that is not a plain token (a header injection, a huge one) is replaced, never echoed.
    for (const bad of ["a b", "x".repeat(200), "<script>", "short"]) {
      const r = await api("/v1/nothing-here", { headers: { "x-request-id": bad } });
      expectProblem(r, 404, "not_found");
      expect(r.headers.get("x-request-id")).not.toBe(bad);
      expect(r.body.request_id).toBe(r.headers.get("x-request-id"));
      expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Problems the gate answers before Next.js carry it too.
    const traced = await new Promise<{ id: unknown; body: string }>((resolve, reject) => {
      const req = http.request(`${baseUrl}/v1/log`, { method: "TRACE" }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ id: res.headers["x-request-id"], body }));
      });
      req.on("error", reject);
      req.end();
    });
    const body = JSON.parse(traced.body) as { code: string; request_id: string };
    expect(body.code).toBe("method_not_allowed");
    expect(body.request_id).toBe(traced.id);
    const ok = await api("/v1/log");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers /healthz and /readyz, unauthenticated and uncached", async () => {
    const health = await fetch(`${baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe("ok\n");
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({
      status: "ready",
      checks: { database: { ok: true }, migrations: { ok: true }, log: { ok: true }, master_key: { ok: true } },
    });
  });

  it("serves /metrics only with its bearer token: requests by route pattern, the sequencer, the log, refusals, Node's own", async () => {
    expect((await fetch(`${baseUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${baseUrl}/metrics`, { headers: { authorization: "Bearer wrong-token-0123456789" } })).status).toBe(401);
    const { key, issuerId } = await orgWithIssuer();
    const before = await scrape();
    const created = (label: string) =>
      sample(label, "hallmark_http_requests_total", { method: "POST", route: "/v1/attestations", status: "201" }) ?? 0;
    const batches = (text: string) => sample(text, "hallmark_sequencer_batch_entries_count") ?? 0;
    for (let i = 0; i < 3; i++) await attest(key, issuerId);
    const limited = await createKey(key, ["attestations:read"], { rate_limit_per_minute: 1 });
    await api("/v1/issuers", { key: limited.key });
    expectProblem(await api("/v1/issuers", { key: limited.key }), 429, "rate_limited");
    const after = await scrape();
    expect(created(after) - created(before)).toBe(3);
    expect(batches(after)).toBeGreaterThan(batches(before));
    expect(sample(after, "hallmark_sequencer_append_seconds_count", { outcome: "committed" })).toBeGreaterThan(0);
    expect(
      sample(after, "hallmark_http_request_duration_seconds_count", { method: "POST", route: "/v1/attestations", status: "201" }),
    ).toBeGreaterThanOrEqual(3);
    const size = (await api("/v1/log")).body.tree_size as number;
    expect(sample(after, "hallmark_log_tree_size")).toBeGreaterThanOrEqual(size);
    expect(sample(after, "hallmark_log_checkpoint_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(
      sample(after, "hallmark_problems_total", { code: "rate_limited" })! -
        (sample(before, "hallmark_problems_total", { code: "rate_limited" }) ?? 0),
    ).toBe(1);
    // A tile built here is in the tile cache, and shows in its gauges (one cache per process).
    const size0 = (await api("/v1/log")).body.tree_size as number;
    const tile = size0 >= 256 ? "000" : `000.p/${size0}`;
    expect((await fetch(`${baseUrl}/v1/log/tile/entries/${tile}`)).status).toBe(200);
    const cached = await scrape();
    expect(sample(cached, "hallmark_cache_entries", { cache: "tiles" })).toBeGreaterThanOrEqual(1);
    expect(sample(cached, "hallmark_cache_bytes", { cache: "tiles" })).toBeGreaterThan(0);
    expect(sample(cached, "hallmark_cache_entries", { cache: "tree_nodes" })).toBeGreaterThanOrEqual(0);
    expect(sample(cached, "hallmark_cache_bytes", { cache: "gzip" })).toBeGreaterThanOrEqual(0);
    // The attestations above went through the issuer and signer caches of the instance they reached.
    expect(sample(after, "hallmark_cache_entries", { cache: "issuers" })).toBeGreaterThanOrEqual(1);
    expect(sample(after, "hallmark_cache_entries", { cache: "signers" })).toBeGreaterThanOrEqual(1);
    expect(sample(after, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sample(after, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    if (dbKind === "postgres") expect(sample(after, "hallmark_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
    // A route is its pattern, never the path: an id never becomes a label.
    expect(after).not.toContain(issuerId);
    // No token configured, no /metrics at all (it is not served, not merely refused).
    const dir = path.join(work, "no-metrics");
    const env = ownSqliteEnv(dir, "no-metrics");
    delete env.HALLMARK_METRICS_TOKEN;
    execFileSync(process.execPath, ["scripts/prisma.mjs", "deploy"], { env, stdio: "ignore" });
    const server = await OwnServer.start(env);
    try {
      await server.ready();
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });

  it("writes one JSON line per request, with its id, route pattern, status, duration and tenant, and never a secret", async () => {
    // A second instance on the suite's database, whose output this test reads.
    const server = await OwnServer.start(process.env);
    try {
      await server.ready();
      const consumer = await seedConsumer({ plan: "pro" });
      const login = await fetch(`${server.url}/v1/consumer/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: consumer.email, password: consumer.password }),
      });
      expect(login.status).toBe(200);
      const session = ((await login.json()) as { session_token: string }).session_token;
      const usage = await fetch(`${server.url}/v1/consumer/usage`, { headers: { authorization: `Bearer ${session}` } });
      expect(usage.status).toBe(200);
      const keyed = await fetch(`${server.url}/v1/consumer/protections`, { headers: { "x-api-key": consumer.apiKey } });
      expect(keyed.status).toBe(200);
      const wrong = await fetch(`${server.url}/v1/consumer/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": "login-attempt-0001" },
        body: JSON.stringify({ email: consumer.email, password: "not-the-password-at-all" }),
      });
      expect(wrong.status).toBe(401);
      await server.line((l) => l.req_id === "login-attempt-0001");
      const requests = server.lines.filter((l) => l.msg === "request");
      const line = (id: string | null) => requests.find((l) => l.req_id === id);
      expect(line(usage.headers.get("x-request-id"))).toMatchObject({
        level: "info",
        method: "GET",
        route: "/v1/consumer/usage",
        status: 200,
        tenant: consumer.tenantId,
      });
      expect(typeof line(usage.headers.get("x-request-id"))!.ms).toBe("number");
      expect(line(keyed.headers.get("x-request-id"))).toMatchObject({
        route: "/v1/consumer/protections",
        status: 200,
        tenant: consumer.tenantId,
      });
      expect(line("login-attempt-0001")).toMatchObject({ method: "POST", route: "/v1/consumer/login", status: 401 });
      for (const secret of [consumer.password, "not-the-password-at-all", session, consumer.apiKey, consumer.email])
        expect(server.output).not.toContain(secret);
      expect(server.lines.find((l) => l.msg === "listening")).toMatchObject({ db: dbKind });
    } finally {
      const end = await server.stop();
      expect(end.code).toBe(0);
      expect(server.lines.at(-1)).toMatchObject({ msg: "stopped", signal: "SIGTERM" });
    }
  });

  it("turns /readyz 503 when the database is gone, and 200 again when it is back", async () => {
    let env: NodeJS.ProcessEnv;
    let gone: () => Promise<void>;
    let back: () => Promise<void>;
    let cleanup = async () => {};
    let migrated = false;
    if (dbKind === "sqlite") {
      const dir = path.join(work, "readyz");
      env = ownSqliteEnv(dir, "readyz");
      const file = path.join(dir, "hallmark.db");
      gone = async () => fs.renameSync(file, `${file}.away`);
      back = async () => fs.renameSync(`${file}.away`, file);
    } else {
      const admin = postgresAdminUrl;
      const name = `hallmark_readyz_${process.pid}`;
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name}`);
      // A copy of the run's migrated template where there is one (scripts/test.mjs), else migrated below.
      const template = process.env.HALLMARK_TEST_PG_TEMPLATE;
      await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
      migrated = template !== undefined;
      const url = new URL(admin);
      url.pathname = `/${name}`;
      env = { ...process.env, DATABASE_URL: url.toString(), HALLMARK_LOG_ORIGIN: `hallmark-test/readyz-${process.pid}` };
      for (const n of ["HALLMARK_WITNESS_POLICY", "HALLMARK_TSA_URL", "HALLMARK_TSA_CERT"]) delete env[n];
      // Refused to everyone, superusers included, and its open connections ended.
      gone = async () => {
        await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
        await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
      };
      back = async () => void (await client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
      cleanup = async () => {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      };
    }
    if (!migrated) execFileSync(process.execPath, ["scripts/prisma.mjs", "deploy"], { env, stdio: "ignore" });
    const server = await OwnServer.start(env);
    const readyz = async () => {
      const r = await fetch(`${server.url}/readyz`);
      return { status: r.status, body: (await r.json()) as { status: string; checks: Record<string, { ok: boolean }> } };
    };
    try {
      await server.ready();
      await gone();
      const down = await readyz();
      expect(down.status).toBe(503);
      expect(down.body.status).toBe("not_ready");
      expect(down.body.checks.database).toEqual({ ok: false });
      // Why is in the log, not in the public answer.
      expect(await server.line((l) => l.msg === "not ready" && l.check === "database")).toMatchObject({ level: "warn" });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await back();
      let again = await readyz();
      for (let i = 0; i < 50 && again.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 100));
        again = await readyz();
      }
      expect(again.status).toBe(200);
    } finally {
      await server.stop("SIGKILL");
      await cleanup();
    }
  });
});
