// Nothing acknowledged is ever lost, and a retry never duplicates: servers of its own, on the
// suite's database (SQLite: one; PostgreSQL: two, killed one at a time), under mint and
// attestation load, are killed with SIGKILL at random moments and restarted. Then every 2xx
// answer is in the log with a verifying proof, no protection attestation lacks its protection,
// every usage counter equals its month's protections, every Idempotency-Key minted once, no
// retry met a 409, every checkpoint seen is consistent with the next, and the log audit passes.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { verifyConsistencyProof, verifyProofBundle } from "@/lib/verify";
import { baseUrls, createIssuer, createKey, dbKind, logKey, randomContentHash } from "./helpers";
import { forEachConcurrently } from "./concurrently";
import { freePort, sleep } from "./own-server";
import { assertDescribed } from "./openapi-conformance";
import { seedConsumer, seedOrg } from "../accounts";
import { prng } from "../../lib/testing/prng";

const LOAD_MS = Number(process.env.HALLMARK_CRASH_SECONDS ?? 45) * 1000;
const KILLS = Number(process.env.HALLMARK_CRASH_KILLS ?? 5);
const INSTANCES = dbKind === "postgres" ? 2 : 1;
const CLIENTS = 16;
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
    if (!child || child.exitCode !== null) return;
    await new Promise((r) => (child.once("exit", r), child.kill("SIGKILL")));
  }
}

type Answer = { status: number; body: any; replayed: boolean };

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
  it(
    "loses nothing acknowledged, duplicates no retry, and leaves the log and the accounts consistent",
    async () => {
      const org = (await seedOrg()).apiKey;
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
      const instances = await Promise.all(Array.from({ length: INSTANCES }, async () => new Instance(await freePort())));
      await Promise.all(instances.map((i) => i.start()));

      const attested: { id: string; key: string }[] = [];
      const mints = new Map<string, { key: string; userId: string; answers: Answer[] }>(); // by Idempotency-Key
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
        ...Array.from({ length: CLIENTS / 2 }, attestLoop),
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
          const month = new Date(p.created_at as string).toISOString().slice(0, 7);
          const k = `${p.user_id} ${month}`;
          counted.set(k, (counted.get(k) ?? 0) + 1);
        }
        const counters = await query(`SELECT user_id, month, "count" FROM usage_counters WHERE user_id IN (${users})`);
        expect(Object.fromEntries(counters.map((r) => [`${r.user_id} ${r.month}`, Number(r.count)]))).toEqual(Object.fromEntries(counted));
        expect(minted.length).toBe(protections.length);

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
        execFileSync("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/audit-log.ts"], { env: process.env, stdio: "ignore" });
        console.log(
          `[crash] ${dbKind}: ${kills} kills in ${LOAD_MS / 1000} s (seed ${SEED}); ${attested.length} attestations and ${minted.length} mints acknowledged, all present; ${sizes.length} tree heads, each consistent with the next`,
        );
      } finally {
        await Promise.all(instances.map((i) => i.kill()));
      }
    },
    LOAD_MS + 180_000,
  );
});
