// @hallmark-test db=sqlite,postgres lane=second-server
// Nothing acknowledged is ever lost, and a retry never duplicates: servers of its own, on the
// suite's database (SQLite: one; PostgreSQL: two, killed one at a time), under mint, attestation
// and batch load, are killed with SIGKILL at random moments and restarted. Then every 2xx answer
// is in the log with a verifying proof, no protection attestation lacks its protection, every
// usage counter equals its month's protections, every Idempotency-Key minted once, no retry met a
// 409, every batch is in the log whole or not at all (once, as its answer says, when answered),
// every checkpoint seen is consistent with the next, and the log audit passes.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { verifyConsistencyProof, verifyProofBundle } from "@/lib/verify";
import { baseUrls, createIssuer, createKey, dbKind, logKey, randomContentHash } from "./helpers";
import { forEachConcurrently } from "./concurrently";
import { freePort, sleep } from "./own-server";
import { assertDescribed } from "./openapi-conformance";
import { seedConsumer, seedOrg } from "../accounts";
import { calendarMonth } from "../../lib/testing/calendar";
import { prng } from "../../lib/testing/prng";

const LOAD_MS = Number(process.env.HALLMARK_CRASH_SECONDS ?? 45) * 1000;
const KILLS = Number(process.env.HALLMARK_CRASH_KILLS ?? 5);
const INSTANCES = dbKind === "postgres" ? 2 : 1;
const CLIENTS = 16;
/** Of the CLIENTS, how many send batches instead of single attestations. */
const BATCH_CLIENTS = 2;
// The kill schedule comes from this seed, printed with the result: HALLMARK_CRASH_SEED replays it.
const SEED = Number(process.env.HALLMARK_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** One server process of our own, on a fixed port, that can be killed and started again. */
class Instance {
  child: ChildProcess | null = null;
  constructor(readonly port: number) {}
  get url() {
    return `http://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    const env = { ...process.env, PORT: String(this.port), HALLMARK_BASE_URL: this.url };
    this.child = spawn(process.execPath, ["scripts/serve.mjs", "-p", String(this.port), "-H", "127.0.0.1"], {
      env,
      stdio: ["ignore", "ignore", "ignore"],
    });
    for (let i = 0; i < 300; i++) {
      try {
        if ((await fetch(`${this.url}/v1/log`)).ok) return;
      } catch {}
      await sleep(100);
    }
    throw new Error(`instance on ${this.port} did not start`);
  }
  /** SIGKILL: no handler runs, nothing is flushed; the next start recovers from what is on disk. */
  async kill(): Promise<void> {
    const child = this.child;
    // Ended already: by its own exit (exitCode) or by a signal (signalCode; exitCode stays null).
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((r) => (child.once("exit", r), child.kill("SIGKILL")));
  }
}

type Answer = { status: number; body: any; replayed: boolean };
type BatchItem = { issuer_id: string; payload: { content_hash: string; batch: string; n: number }; sealed: boolean };

async function post(url: string, path: string, key: string, body: unknown, idempotencyKey?: string): Promise<Answer | null> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key, ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    text = await res.text();
  } catch {
    return null; // the server died under the request: no answer
  }
  // An answer it did give is one the OpenAPI document describes.
  await assertDescribed(baseUrls[0]!, "POST", path, res.status, res.headers, text);
  return { status: res.status, body: text ? JSON.parse(text) : null, replayed: res.headers.get("idempotent-replayed") === "true" };
}

/** Rows straight from the database, for what no endpoint shows (orphans, counters). */
async function query(sql: string): Promise<Record<string, unknown>[]> {
  const url = process.env.DATABASE_URL!;
  if (url.startsWith("file:")) {
    const db = new Database(url.slice("file:".length), { readonly: true, timeout: 10_000 });
    try {
      return db.prepare(sql).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe(`kill -9 under load (${dbKind}, ${INSTANCES} instance${INSTANCES > 1 ? "s" : ""})`, () => {
  let instances: Instance[] = [];
  // The test's own `finally` does not run when it times out: its servers must not outlive it.
  afterAll(() => Promise.all(instances.map((i) => i.kill())));

  it(
    "loses nothing acknowledged, duplicates no retry, and leaves the log and the accounts consistent",
    async () => {
      const account = await seedOrg();
      const org = account.apiKey;
      const issuer = (await createIssuer(org)).id;
      // Keys whose rate limits the load cannot reach (the Pro plan's largest): a 429 here would only hide what is tested.
      const consumers = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const c = await seedConsumer({ plan: "pro" });
          const key = await createKey(c.apiKey, ["protections:read", "protections:write"], {
            rate_limit_per_minute: 100_000,
            daily_quota: 10_000_000,
          });
          return { userId: c.userId, apiKey: key.key };
        }),
      );
      instances = await Promise.all(Array.from({ length: INSTANCES }, async () => new Instance(await freePort())));
      await Promise.all(instances.map((i) => i.start()));

      const attested: { id: string; key: string }[] = [];
      const mints = new Map<string, { key: string; userId: string; answers: Answer[] }>(); // by Idempotency-Key
      // By Idempotency-Key; `unanswered`: attempts that got no answer (the server died under them).
      const batches = new Map<string, { items: BatchItem[]; answers: Answer[]; unanswered: number }>();
      const problems: string[] = [];
      const treeHeads = new Map<number, string>(); // size -> root, as GET /v1/log showed them
      let live = true;
      const pick = () => instances[Math.floor(Math.random() * instances.length)]!.url;

      async function attestLoop() {
        while (live) {
          // Half of them sealed: their proofs must open what the log holds as a commitment.
          const sealed = Math.random() < 0.5;
          const a = await post(pick(), "/v1/attestations", org, {
            issuer_id: issuer,
            payload: { content_hash: randomContentHash() },
            sealed,
          });
          if (a && a.status === 201) attested.push({ id: a.body.id, key: org });
          else if (a && a.status >= 500 && a.status !== 503) problems.push(`attestation answered ${a.status}: ${JSON.stringify(a.body)}`);
          if (!a) await sleep(50);
        }
      }
      /** Mints with an Idempotency-Key, retried with the same key and body until answered 201. */
      async function mintLoop(c: (typeof consumers)[number]) {
        while (live) {
          const key = randomUUID();
          // Private mints are logged sealed, public ones in the open: both kinds under every kill.
          const body = { content_hash: randomContentHash(), title: `crash ${key}`, visibility: Math.random() < 0.5 ? "private" : "public" };
          const record = { key: c.apiKey, userId: c.userId, answers: [] as Answer[] };
          mints.set(key, record);
          for (let attempt = 0; ; attempt++) {
            const a = await post(pick(), "/v1/consumer/mint", c.apiKey, body, key);
            if (a) record.answers.push(a);
            if (a?.status === 201) break;
            if (a && a.status === 409) problems.push(`a retry of ${key} met 409: ${JSON.stringify(a.body)}`);
            if (a && a.status >= 500 && a.status !== 503) problems.push(`mint answered ${a.status}: ${JSON.stringify(a.body)}`);
            if (attempt > 200) {
              problems.push(`mint ${key} never answered 201`);
              break;
            }
            await sleep(100); // the server is restarting
          }
        }
      }
      /**
       * Batches with an Idempotency-Key, retried with the same key and body until answered 201.
       * Every item carries the key and its place (payload.batch, payload.n), which the attestations
       * table keeps for sealed items too (its payload column is the signed payload; the seal is a
       * column of its own): the rows of a batch are counted by them afterwards.
       */
      async function batchLoop() {
        while (live) {
          const key = `crash-batch-${randomUUID()}`;
          // Half of them sealed (a batch is all sealed or all open).
          const sealed = Math.random() < 0.5;
          const items: BatchItem[] = Array.from({ length: 20 + Math.floor(Math.random() * 81) }, (_, n) => ({
            issuer_id: issuer,
            payload: { content_hash: randomContentHash(), batch: key, n },
            sealed,
          }));
          const record = { items, answers: [] as Answer[], unanswered: 0 };
          batches.set(key, record);
          // A quarter of them are sent once more after their 201: a replay, maybe by another instance.
          const sends = Math.random() < 0.25 ? 2 : 1;
          for (let attempt = 0, acknowledged = 0; acknowledged < sends; attempt++) {
            const a = await post(pick(), "/v1/attestations/batch", org, { items }, key);
            if (a) record.answers.push(a);
            else record.unanswered++;
            if (a?.status === 201) {
              acknowledged++;
              continue;
            }
            // Every attempt sends the same valid body: anything but 201 or 503 (restarting) is wrong.
            if (a && a.status !== 503) problems.push(`batch ${key} answered ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}`);
            if (attempt > 200) {
              problems.push(`batch ${key} never answered 201`);
              break;
            }
            await sleep(100); // the server is restarting
          }
        }
      }
      async function watchLog() {
        while (live) {
          try {
            const res = await fetch(`${pick()}/v1/log`, { signal: AbortSignal.timeout(5000) });
            if (res.ok) {
              const head = (await res.json()) as { tree_size: number; root_hash: string };
              const seen = treeHeads.get(head.tree_size);
              if (seen && seen !== head.root_hash) problems.push(`two roots for size ${head.tree_size}`);
              treeHeads.set(head.tree_size, head.root_hash);
            }
          } catch {}
          await sleep(150);
        }
      }

      const load = [
        ...Array.from({ length: CLIENTS / 2 - BATCH_CLIENTS }, attestLoop),
        ...Array.from({ length: BATCH_CLIENTS }, batchLoop),
        ...Array.from({ length: CLIENTS / 2 }, (_, i) => mintLoop(consumers[i % consumers.length]!)),
        watchLog(),
      ];
      // Kill -9 at random moments (from SEED), one instance at a time, and bring it back.
      const random = prng(SEED);
      console.log(`[crash] ${dbKind}: kill schedule seed ${SEED} (HALLMARK_CRASH_SEED=${SEED} replays it)`);
      let kills = 0;
      for (let k = 0; k < KILLS; k++) {
        await sleep((LOAD_MS / KILLS) * (0.5 + random() * 0.5));
        const victim = instances[k % instances.length]!;
        await victim.kill();
        kills++;
        await sleep(random() * 300);
        await victim.start();
      }
      live = false;
      await Promise.all(load);
      try {
        expect(problems.slice(0, 20)).toEqual([]);
        // The test tested something: every kill happened, under writes that were acknowledged
        // between them, and the log's head moved while it was watched.
        expect(kills).toBe(KILLS);
        expect(attested.length, "attestations acknowledged").toBeGreaterThanOrEqual(KILLS * 4);
        const mintsAcknowledged = [...mints.values()].filter((m) => m.answers.some((x) => x.status === 201)).length;
        expect(mintsAcknowledged, "mints acknowledged").toBeGreaterThanOrEqual(KILLS * 4);
        const answered = [...batches.entries()].filter(([, b]) => b.answers.some((x) => x.status === 201));
        expect(answered.length, "batches acknowledged").toBeGreaterThanOrEqual(KILLS);

        // Every acknowledged attestation and mint is in the log, in a signed checkpoint, and verifies.
        const logPublicKey = await logKey();
        const url = instances[0]!.url;
        // In the log and signed by it, whether or not the witnesses have cosigned it yet (instances
        // killed while holding a witness's lease hold that witness up for the lease's length).
        const bundleOf = async (path: string, key: string) => {
          const res = await fetch(`${url}${path}?witnessed=optional`, { headers: { "x-api-key": key } });
          const text = await res.text();
          await assertDescribed(baseUrls[0]!, "GET", path, res.status, res.headers, text);
          return { status: res.status, body: JSON.parse(text) };
        };
        const minted = [...mints.entries()].filter(([, m]) => m.answers.some((x) => x.status === 201));
        const checks: { what: string; path: string; key: string }[] = attested.map((a) => ({
          what: a.id,
          path: `/v1/attestations/${a.id}/proof-bundle`,
          key: a.key,
        }));
        for (const [key, m] of minted) {
          const firsts = m.answers.filter((x) => x.status === 201);
          // Every 201 for one key is the same answer: the first one, replayed.
          expect(new Set(firsts.map((x) => JSON.stringify(x.body))).size, key).toBe(1);
          checks.push({ what: key, path: `/v1/attestations/${firsts[0]!.body.attestation_id}/proof-bundle`, key: m.key });
        }
        // Each acknowledged batch: every 201 for its key is the same answer, the first not marked
        // replayed when every attempt was answered, every later one marked; one attestation per
        // item, in the items' order, with contiguous log indexes.
        // Proofs: every item's of the batches retried (an attempt unanswered or answered 503, as
        // under a kill) and of every tenth batch answered, the first and last item's of every batch. A
        // proof for every item (16,000 to 35,000 items in 45 s of load on two cores) takes the
        // check phase past two minutes; every item's row is accounted for in the database below,
        // and every leaf by the log audit.
        const batchFaults: string[] = [];
        let batchProofs = 0;
        let batchesRetried = 0;
        for (const [k, [key, b]] of answered.entries()) {
          const retried = b.unanswered > 0 || b.answers.some((x) => x.status !== 201);
          if (retried) batchesRetried++;
          const everyItem = retried || k % 10 === 0;
          const oks = b.answers.filter((x) => x.status === 201);
          if (new Set(oks.map((x) => JSON.stringify(x.body))).size !== 1) batchFaults.push(`${key}: two different 201 answers`);
          if (b.unanswered === 0 && b.answers[0]!.status === 201 && b.answers[0]!.replayed)
            batchFaults.push(`${key}: its first attempt's answer is marked replayed`);
          if (oks.slice(1).some((x) => !x.replayed)) batchFaults.push(`${key}: a 201 after the first is not marked replayed`);
          const made = oks[0]!.body.attestations as { id: string; issuer_id: string; payload: unknown; log_index: number }[];
          if (made.length !== b.items.length) batchFaults.push(`${key}: ${made.length} attestations for ${b.items.length} items`);
          made.forEach((a, i) => {
            if (a.log_index !== made[0]!.log_index + i)
              batchFaults.push(`${key}/${i}: log_index ${a.log_index}, not ${made[0]!.log_index + i}`);
            if (JSON.stringify(a.payload) !== JSON.stringify(b.items[i]?.payload) || a.issuer_id !== issuer)
              batchFaults.push(`${key}/${i}: not its item: ${JSON.stringify(a).slice(0, 200)}`);
            if (everyItem || i === 0 || i === made.length - 1) {
              checks.push({ what: `${key}/${i}`, path: `/v1/attestations/${a.id}/proof-bundle`, key: org });
              batchProofs++;
            }
          });
          if (new Set(made.map((a) => a.id)).size !== made.length) batchFaults.push(`${key}: an id twice`);
        }
        expect(batchFaults.slice(0, 10), `${batchFaults.length} faults in acknowledged batches`).toEqual([]);
        const failed: string[] = [];
        await forEachConcurrently(checks, 8, async (c) => {
          const b = await bundleOf(c.path, c.key);
          if (b.status !== 200 || !verifyProofBundle(b.body, { logPublicKey }).ok)
            failed.push(`${c.what}: ${b.status} ${JSON.stringify(b.body).slice(0, 200)}`);
        });
        expect(failed.slice(0, 10), `${failed.length} of ${checks.length} acknowledged writes missing or not verifying`).toEqual([]);

        // Nothing half there: no protection attestation of an existing account without its
        // protection (a deleted account's records go, its signed entries stay); one protection per
        // key (each key minted its own content hash); counters equal the month's protections.
        const orphans = await query(
          `SELECT a.id FROM attestations a LEFT JOIN protections p ON p.attestation_id = a.id WHERE a.payload LIKE '%"type":"hallmark.protection/v1"%' AND p.id IS NULL AND a.tenant_id IN (SELECT tenant_id FROM users)`,
        );
        expect(orphans).toEqual([]);
        const titles = await query(
          `SELECT title, count(*) AS n FROM protections WHERE title LIKE 'crash %' GROUP BY title HAVING count(*) > 1`,
        );
        expect(titles).toEqual([]);
        const users = consumers.map((c) => `'${c.userId}'`).join(",");
        const protections = await query(`SELECT user_id, created_at FROM protections WHERE user_id IN (${users})`);
        const counted = new Map<string, number>();
        for (const p of protections) {
          const month = calendarMonth(new Date(p.created_at as string).getTime());
          const k = `${p.user_id} ${month}`;
          counted.set(k, (counted.get(k) ?? 0) + 1);
        }
        const counters = await query(`SELECT user_id, month, "count" FROM usage_counters WHERE user_id IN (${users})`);
        expect(Object.fromEntries(counters.map((r) => [`${r.user_id} ${r.month}`, Number(r.count)]))).toEqual(Object.fromEntries(counted));
        expect(minted.length).toBe(protections.length);

        // A batch is in the log whole or not at all, and once: for every key sent, answered or
        // not, its rows are none or one per item (a retry after a kill that left part of it, or
        // all of it with no answer stored, would show as another count); for an answered one
        // they are exactly the attestations of its answer.
        const rows = await query(
          `SELECT id, payload FROM attestations WHERE tenant_id = '${account.tenantId}' AND payload LIKE '%"batch":"crash-batch-%'`,
        );
        const logged = new Map<string, { id: string; n: number }[]>();
        for (const r of rows) {
          const p = JSON.parse(r.payload as string) as BatchItem["payload"];
          logged.set(p.batch, [...(logged.get(p.batch) ?? []), { id: r.id as string, n: p.n }]);
        }
        const partial: string[] = [];
        for (const [key, b] of batches) {
          const got = logged.get(key) ?? [];
          const ok = b.answers.find((x) => x.status === 201);
          const ids = (ok?.body.attestations as { id: string }[] | undefined)?.map((a) => a.id);
          const whole = got.length === b.items.length && new Set(got.map((r) => r.n)).size === b.items.length;
          if (ok ? !whole || !got.every((r) => ids!.includes(r.id)) : got.length !== 0 && !whole)
            partial.push(`${key}: ${got.length} rows for ${b.items.length} items${ok ? ", answered" : ", never answered"}`);
        }
        for (const key of logged.keys()) if (!batches.has(key)) partial.push(`${key}: rows of a batch never sent`);
        expect(partial.slice(0, 10), `${partial.length} batches not logged whole and once`).toEqual([]);

        // Every tree head seen is consistent with the next one seen.
        // (Size 0, the empty log, has no checkpoint to prove from.)
        const sizes = [...treeHeads.keys()].filter((n) => n > 0).sort((a, b) => a - b);
        expect(sizes.length, "tree heads seen").toBeGreaterThanOrEqual(KILLS);
        for (let i = 1; i < sizes.length; i++) {
          const path = `/v1/log/consistency?first=${sizes[i - 1]}&second=${sizes[i]}`;
          const res = await fetch(`${url}${path}`);
          expect(res.status, `${sizes[i - 1]} → ${sizes[i]}`).toBe(200);
          const text = await res.text();
          await assertDescribed(baseUrls[0]!, "GET", path, res.status, res.headers, text);
          const proof = JSON.parse(text);
          expect(proof.first.root_hash).toBe(treeHeads.get(sizes[i - 1]!));
          expect(proof.second.root_hash).toBe(treeHeads.get(sizes[i]!));
          const input = { first: proof.first.checkpoint, second: proof.second.checkpoint, proof: proof.hashes };
          expect(verifyConsistencyProof(input, { logPublicKey }).ok, `${sizes[i - 1]} → ${sizes[i]}`).toBe(true);
        }
        const batchItems = answered.reduce((n, [, b]) => n + b.items.length, 0);
        const replays = answered.reduce((n, [, b]) => n + b.answers.filter((x) => x.status === 201 && x.replayed).length, 0);
        execFileSync("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/audit-log.ts"], { env: process.env, stdio: "ignore" });
        console.log(
          `[crash] ${dbKind}: ${kills} kills in ${LOAD_MS / 1000} s (seed ${SEED}); ${attested.length} attestations, ${minted.length} mints and ${answered.length} batches (${batchItems} items; ${batchesRetried} retried, ${replays} replays; ${batchProofs} item proofs checked) acknowledged, all present, each batch whole and once; ${sizes.length} tree heads, each consistent with the next`,
        );
      } finally {
        await Promise.all(instances.map((i) => i.kill()));
      }
    },
    // Beyond the load: five restarts, then every acknowledged row, thousands of item proofs and
    // every tree head checked; beside the rest of the suite on two cores that has taken over 180 s.
    LOAD_MS + 300_000,
  );
});
