// @hallmark-test db=sqlite,postgres lane=second-server
// Restarts under load. SIGTERM lets requests in flight finish, drains the sequencer and exits 0;
// a client that retries with its Idempotency-Key (on the other instance, or once the instance
// is back) sees no 5xx, and nothing acknowledged is lost or duplicated. On PostgreSQL one of two
// instances restarts while both serve; on SQLite the one instance restarts, and a second
// instance started on the live data directory (an overlapping restart) comes up beside the first.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { baseUrls, dbKind, randomContentHash } from "./helpers";
import { itWhere } from "./only-where";
import { assertDescribed } from "./openapi-conformance";
import { OwnServer, ownSqliteEnv, sleep } from "./own-server";
import { seedConsumer, seedOrg } from "../accounts";

const CLIENTS = 8;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-restart-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

type Answer = { status: number; body: any; replayed: boolean };

/**
 * One POST; null when no answer came (the connection refused or reset, or no whole answer within
 * 20 s): the caller retries with the same Idempotency-Key. An answer that came is an answer: one
 * the OpenAPI document does not describe, or whose body is not JSON, fails the test.
 */
async function post(url: string, p: string, key: string, body: unknown, idempotencyKey: string): Promise<Answer | null> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${url}${p}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key, "idempotency-key": idempotencyKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    text = await res.text();
  } catch {
    return null;
  }
  await assertDescribed(baseUrls[0]!, "POST", p, res.status, res.headers, text);
  return { status: res.status, body: JSON.parse(text), replayed: res.headers.get("idempotent-replayed") === "true" };
}

/**
 * Clients minting as a careful client does: a fresh Idempotency-Key per protection, retried
 * (on the next instance) until answered. Runs until `stop()`; every answer is kept.
 */
async function mintLoad(urls: () => string[]) {
  const answers: { key: string; consumer: string; answer: Answer; retries: number }[] = [];
  let live = true;
  const consumers = await Promise.all(Array.from({ length: CLIENTS }, () => seedConsumer({ plan: "pro" })));
  const running = consumers.map(async (c, n) => {
    let turn = n;
    while (live) {
      const key = randomUUID();
      const body = { content_hash: randomContentHash(), title: "restart", category: "media", visibility: "public" };
      let retries = 0;
      for (;;) {
        const list = urls();
        const answer = await post(list[turn++ % list.length]!, "/v1/consumer/mint", c.apiKey, body, key);
        if (answer) {
          answers.push({ key, consumer: c.tenantId, answer, retries });
          break;
        }
        retries++;
        await sleep(50);
      }
    }
  });
  return {
    answers,
    consumers,
    stop: async () => {
      live = false;
      await Promise.all(running);
    },
  };
}

/** Every answer a 201 (or its replay), each key minted once, and every protection in the account's list. */
async function expectNothingLost(load: Awaited<ReturnType<typeof mintLoad>>, url: string) {
  const statuses = new Map<number, number>();
  for (const a of load.answers) statuses.set(a.answer.status, (statuses.get(a.answer.status) ?? 0) + 1);
  expect(Object.fromEntries(statuses)).toEqual({ 201: load.answers.length });
  expect(new Set(load.answers.map((a) => a.key)).size).toBe(load.answers.length);
  expect(new Set(load.answers.map((a) => a.answer.body.protection_id)).size).toBe(load.answers.length);
  for (const c of load.consumers) {
    const mine = load.answers.filter((a) => a.consumer === c.tenantId).map((a) => a.answer.body.protection_id);
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await fetch(`${url}/v1/consumer/protections?limit=100${cursor ? `&cursor=${cursor}` : ""}`, {
        headers: { "x-api-key": c.apiKey },
      });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { items: { protection_id: string }[]; next_cursor: string | null };
      listed.push(...page.items.map((p) => p.protection_id));
      cursor = page.next_cursor;
    } while (cursor);
    // Nothing acknowledged is missing, nothing is there twice.
    expect(listed.sort()).toEqual(mine.sort());
  }
}

describe(`restarts under load (${dbKind})`, () => {
  it(`SIGTERM on ${dbKind === "postgres" ? "one of two instances" : "the instance"} under load: it drains and exits 0, restarts, and no client sees a 5xx or loses a protection`, async () => {
    const count = dbKind === "postgres" ? 2 : 1;
    const servers = await Promise.all(Array.from({ length: count }, () => OwnServer.start(process.env)));
    await Promise.all(servers.map((s) => s.ready()));
    // The live set: a stopped instance leaves it, as a load balancer would stop routing to it.
    let live = servers.map((s) => s.url);
    const load = await mintLoad(() => live);
    try {
      await sleep(1500);
      const first = servers[0]!;
      const t0 = performance.now();
      const end = await first.stop("SIGTERM");
      const stopMs = performance.now() - t0;
      expect(end).toEqual({ code: 0, signal: null });
      expect(first.lines.at(-1)).toMatchObject({ msg: "stopped", signal: "SIGTERM" });
      if (count === 2) live = [servers[1]!.url]; // the other instance carries the load meanwhile
      const again = await OwnServer.start(process.env, { port: first.port });
      servers[0] = again;
      const readyMs = await again.ready();
      live = servers.map((s) => s.url);
      await sleep(1500);
      await load.stop();
      console.log(
        `[restart ${dbKind}] stopped in ${stopMs.toFixed(0)} ms, ready again in ${readyMs.toFixed(0)} ms; ${load.answers.length} mints, ${load.answers.filter((a) => a.retries > 0).length} retried`,
      );
      await expectNothingLost(load, baseUrls[0]!);
    } finally {
      await load.stop();
      for (const s of servers) expect((await s.stop()).code).toBe(0);
    }
  });

  itWhere(dbKind === "sqlite", "two instances on one SQLite data directory: a SQLite deployment's case")(
    "a second instance started (npm start) on a live SQLite data directory comes up beside the first; the first then stops cleanly",
    async () => {
      const dir = path.join(work, "overlap");
      const env = ownSqliteEnv(dir, "overlap");
      // The first start applies the migrations (none applied yet), as `npm start` does.
      const a = await OwnServer.start(env, { script: "start" });
      await a.ready();
      const key = (await seedOrg({ env })).apiKey;
      const issuer = await (
        await fetch(`${a.url}/v1/issuers`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify({ name: "Overlap", domain: "overlap.example.org" }),
        })
      ).json();
      let urls = [a.url];
      const acked: string[] = [];
      const refused: number[] = [];
      let live = true;
      const load = Array.from({ length: 4 }, async () => {
        while (live) {
          let res: Response;
          let text: string;
          try {
            res = await fetch(`${urls.at(-1)}/v1/attestations`, {
              method: "POST",
              headers: { "content-type": "application/json", "x-api-key": key },
              body: JSON.stringify({ issuer_id: issuer.id, payload: { content_hash: randomContentHash() } }),
            });
            text = await res.text();
          } catch {
            // No answer (refused or reset while an instance stops): try again.
            await sleep(20);
            continue;
          }
          if (res.status === 201) acked.push(JSON.parse(text).id);
          else refused.push(res.status);
        }
      });
      try {
        await sleep(1000);
        const b = await OwnServer.start(env, { script: "start" });
        const readyMs = await b.ready();
        expect(b.output).not.toContain("WASM_ERROR");
        // npm start runs the server with its heap limit (HALLMARK_HEAP_MB, 512 MB by default).
        const pid = b.child.pid!;
        const [servePid] = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/);
        expect(fs.readFileSync(`/proc/${servePid}/cmdline`, "utf8").split("\0")).toContain("--max-old-space-size=512");
        urls = [a.url, b.url];
        await sleep(1000);
        expect(await a.stop()).toEqual({ code: 0, signal: null });
        await sleep(1000);
        live = false;
        await Promise.all(load);
        console.log(`[overlap] second instance ready in ${readyMs.toFixed(0)} ms; ${acked.length} attestations`);
        expect(refused).toEqual([]);
        // Writes went on through the overlap: on two busy cores, dozens in its 3 s.
        expect(acked.length).toBeGreaterThan(10);
        for (const id of acked) {
          const res = await fetch(`${b.url}/v1/attestations/${id}`, { headers: { "x-api-key": key } });
          expect(res.status).toBe(200);
        }
        expect((await b.stop()).code).toBe(0);
        // The audit of the log written by both.
        execFileSync("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/audit-log.ts"], { env, stdio: "ignore" });
      } finally {
        live = false;
        await Promise.all(load);
        await a.stop("SIGKILL");
      }
    },
  );
});
