// @hallmark-test db=sqlite,postgres lane=side-own-logs witnessing
// What an unauthenticated caller can make Hallmark's witness spend (C2SP tlog-witness, the witness
// side): each key's signature verified once however often its line repeats, the tRPC door as
// narrow as /v1's, failures budgeted per client address and a log's requests by its qpd. On a
// server of its own (its own database on the run's database, behind one trusted proxy so that
// each test speaks from addresses of its own), fed by logs made here (e2e/api/fake-log.ts).
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePolicy, verifyWitnessedCheckpoint } from "@/lib/verify";
import { fakeLog, leaves, request, subproof } from "./fake-log";
import { assertDescribed } from "./openapi-conformance";
import { OwnServer, ownDatabase, ownSqliteEnv, sleep } from "./own-server";

const FAILURES_PER_MINUTE = 5;
const logA = fakeLog(`bounds-a.example/log-${process.pid}`);
const logB = fakeLog(`bounds-b.example/log-${process.pid}`);
const logC = fakeLog(`bounds-c.example/log-${process.pid}`);
const logD = fakeLog(`bounds-d.example/log-${process.pid}`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-witness-bounds-"));
const env: NodeJS.ProcessEnv = {
  ...ownSqliteEnv(dir, "witness-bounds"),
  HALLMARK_TRUSTED_PROXIES: "1",
  HALLMARK_WITNESS_FAILURES: String(FAILURES_PER_MINUTE),
  HALLMARK_WITNESS_LOGS: path.join(dir, "logs.txt"),
};
let server: OwnServer;
let dropDatabase: () => Promise<void>;
const t = leaves(12);

async function post(body: string, from: string) {
  const res = await fetch(`${server.url}/v1/witness/add-checkpoint`, { method: "POST", body, headers: { "x-forwarded-for": from } });
  const text = await res.text();
  await assertDescribed(server.url, "POST", "/v1/witness/add-checkpoint", res.status, res.headers, text);
  return { status: res.status, text, headers: res.headers };
}

const held = async (origin: string) => {
  const res = await fetch(`${server.url}/v1/witness/${createHash("sha256").update(origin).digest("hex")}/checkpoint`);
  return res.status === 200 ? res.text() : null;
};
/** The signature lines of a note, without the body. */
const sigLines = (note: string) =>
  note
    .slice(note.lastIndexOf("\n\n") + 2)
    .split("\n")
    .filter(Boolean);
/** `line` with one character of its signature changed (its key ID, the first 4 bytes, kept). */
const corrupt = (line: string) => {
  const at = line.lastIndexOf(" ") + 20;
  return line.slice(0, at) + (line[at] === "A" ? "B" : "A") + line.slice(at + 1);
};

beforeAll(async () => {
  const item = (vkey: string, qpd: number) => `vkey ${vkey}\nqpd ${qpd}\ncontact test\n`;
  fs.writeFileSync(
    env.HALLMARK_WITNESS_LOGS!,
    `logs/v0\n${item(logA.vkey, 86400)}${item(logB.vkey, 3)}${item(logC.vkey, 86400)}${item(logD.vkey, 86400)}`,
  );
  dropDatabase = await ownDatabase(env, `hallmark_witness_bounds_${process.pid}`);
  server = await OwnServer.start(env);
  await server.ready();
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await dropDatabase?.();
});

describe("Hallmark's witness does bounded work per request", () => {
  it("reads one signature line per key, as Go's note.Open does: copies after the first are neither verified nor kept", async () => {
    const cp = logA.checkpoint(t, 5);
    const [body, line] = [cp.slice(0, cp.lastIndexOf("\n\n") + 2), sigLines(cp)[0]!];
    // The first line by the log's key verifies; 99 broken copies of it after it are not read.
    const first = await post(request(0, [], `${body}${line}\n${`${corrupt(line)}\n`.repeat(99)}`), "192.0.2.1");
    expect(first.status, first.text).toBe(200);
    // 100 copies of the valid line: one is verified, and the note kept holds it once.
    const cp8 = logA.checkpoint(t, 8);
    const line8 = sigLines(cp8)[0]!;
    const again = await post(
      request(5, subproof(5, t.slice(0, 8), true), `${cp8.slice(0, -1 - line8.length)}${`${line8}\n`.repeat(100)}`),
      "192.0.2.1",
    );
    expect(again.status, again.text).toBe(200);
    const kept = sigLines((await held(logA.origin))!);
    expect(kept.filter((l) => l.startsWith(`\u2014 ${logA.origin} `))).toEqual([line8]);
    expect(kept).toHaveLength(3); // the log's line and the witness's two cosignatures
    // A broken first line by the log's key is a signature that fails (403), whatever follows it.
    const cp12 = logA.checkpoint(t, 12);
    const line12 = sigLines(cp12)[0]!;
    const broken = await post(
      request(8, subproof(8, t, true), `${cp12.slice(0, -1 - line12.length)}${corrupt(line12)}\n${line12}\n`),
      "192.0.2.1",
    );
    expect(broken.status, broken.text).toBe(403);
  });

  it("caps the tRPC input at the 16 KiB of /v1, and never batches witness calls", async () => {
    // A checkpoint the log really signed, with an extension line that takes it past 16 KiB.
    const big = request(0, [], logC.checkpoint(t, 3, [`x-padding ${"p".repeat(17_000)}`]));
    const viaTrpc = await fetch(`${server.url}/api/trpc/witness.addCheckpoint`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.2" },
      body: JSON.stringify({ body: big }),
    });
    expect(viaTrpc.status, await viaTrpc.text()).toBe(400);
    expect((await post(big, "192.0.2.2")).status).toBe(413);
    expect(await held(logC.origin)).toBeNull(); // nothing cosigned, nothing written
    // Alone, a witness call is served; in a batch with any other call, refused whole.
    expect((await fetch(`${server.url}/api/trpc/witness.info`)).status).toBe(200);
    const input = encodeURIComponent(JSON.stringify({ 0: {}, 1: { id: "0190a0a0-0000-7000-8000-000000000000" } }));
    const batch = await fetch(`${server.url}/api/trpc/witness.info,public.protection?batch=1&input=${input}`);
    const problem = await batch.json();
    expect(batch.status).toBe(400);
    expect(problem).toMatchObject({ code: "invalid_parameter" });
    expect(problem.detail).toMatch(/witness\.info is never batched/);
  });

  it("limits the requests that fail per client address (429 with Retry-After); answers given do not count", async () => {
    for (let i = 0; i < FAILURES_PER_MINUTE; i++) expect((await post("nonsense", "198.51.100.7")).status).toBe(400);
    const refused = await post("nonsense", "198.51.100.7");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(refused.text)).toMatchObject({ code: "rate_limited", status: 429 });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The address is refused even a request that would have succeeded; another address is not.
    const stale = request(0, [], logA.checkpoint(t, 5));
    expect((await post(stale, "198.51.100.7")).status).toBe(429);
    expect((await post("nonsense", "198.51.100.8")).status).toBe(400);
    // Answers that are not failures (here 409s: the witness holds a larger size) give their unit back.
    for (let i = 0; i < FAILURES_PER_MINUTE * 2; i++) expect((await post(stale, "198.51.100.9")).status).toBe(409);
  });

  it("takes a log's new checkpoints up to its qpd a day, from whatever address, then 429 with Retry-After; replays spend none", async () => {
    const cp4 = logB.checkpoint(t, 4);
    const cp6 = logB.checkpoint(t, 6);
    const cp8 = logB.checkpoint(t, 8);
    expect((await post(request(0, [], cp4), "203.0.113.1")).status).toBe(200);
    // What anyone could send, holding only published checkpoints: a stale one (409) and the
    // current one again (cosigned anew), many times. None of it is the log's to pay.
    for (let i = 0; i < 5; i++) {
      expect((await post(request(0, [], cp4), "203.0.113.2")).status).toBe(409);
      expect((await post(request(4, [], cp4), "203.0.113.3")).status).toBe(200);
    }
    expect((await post(request(4, subproof(4, t.slice(0, 6), true), cp6), "203.0.113.3")).status).toBe(200);
    expect((await post(request(6, subproof(6, t.slice(0, 8), true), cp8), "203.0.113.3")).status).toBe(200);
    const over = await post(request(8, subproof(8, t.slice(0, 10), true), logB.checkpoint(t, 10)), "203.0.113.4");
    expect(over.status, over.text).toBe(429);
    expect(JSON.parse(over.text)).toMatchObject({ code: "rate_limited" });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(3600);
    expect((await held(logB.origin))?.split("\n")[1]).toBe("8"); // nothing of the refused one written
    // Its current checkpoint is still cosigned anew for whoever asks: the budget moves no record.
    expect((await post(request(8, [], cp8), "203.0.113.5")).status).toBe(200);
    // Requests the log's key did not sign are judged before its budget: still 403, not 429.
    expect((await post(request(8, [], `${corrupt(cp8.trimEnd())}\n`), "203.0.113.5")).status).toBe(403);
  });

  it("cosigns a checkpoint sent again anew, with a fresh timestamp, and keeps the newest", async () => {
    const { vkeys } = (await (await fetch(`${server.url}/v1/witness`)).json()) as { vkeys: string[] };
    const policy = parsePolicy(
      `log ${logD.vkey}\n${vkeys.map((v, i) => `witness k${i} ${v}`).join("\n")}\ngroup both all k0 k1\nquorum both\n`,
    );
    const cp = logD.checkpoint(t, 6);
    const times = (lines: string) => verifyWitnessedCheckpoint(cp + lines, policy).cosigners.map((c) => c.timestamp);
    const first = await post(request(0, [], cp), "192.0.2.4");
    expect(first.status, first.text).toBe(200);
    await sleep(1_100); // timestamps are in seconds
    const again = await post(request(6, [], cp), "192.0.2.4");
    expect(again.status, again.text).toBe(200);
    const [before, after] = [times(first.text), times(again.text)];
    expect(after).toHaveLength(2);
    for (const [i, t1] of after.entries()) expect(t1).toBeGreaterThan(before[i]!);
    // What the monitoring endpoint serves is the newest cosignature.
    const kept = (await held(logD.origin))!;
    expect(sigLines(kept).slice(1)).toEqual(again.text.split("\n").filter(Boolean));
  });
});
