// The log audit against a real SQLite log: intact while appends commit beside it (it audits the
// head it read first), and each kind of damage named: a changed leaf, a node off the tree, an
// attestation past the head.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestLog, type TestLog, useTemporaryDataDir } from "../test-support/test-log";
import type { LogEntry } from "./log-append";
import { storedLeafHash } from "./stored-leaf";

const dir = useTemporaryDataDir("audit");
let m: TestLog;
let auditLog: typeof import("./log-audit").auditLog;

beforeAll(async () => {
  m = await openTestLog(dir);
  ({ auditLog } = await import("./log-audit"));
}, 60_000);

afterAll(async () => {
  await m?.close();
});

/** An entry whose leaf is what the audit recomputes from its stored fields. */
function entry(): LogEntry {
  const id = crypto.randomUUID();
  const payload = { n: crypto.randomInt(1e9) };
  const signature = crypto.randomBytes(64).toString("base64");
  const row = {
    id,
    tenantId: m.tenantId,
    issuerId: m.issuerId,
    kid: m.kid,
    payload: JSON.stringify(payload),
    signature,
    createdAt: new Date(),
  };
  return { row, leafHash: storedLeafHash(row) };
}

const append = (n: number) => Promise.all(Array.from({ length: n }, () => m.sequencer.getSequencer().append(entry())));
const head = async () => Number((await m.db.getDb().read.log.findUniqueOrThrow({ where: { id: 1 } })).treeSize);
/** `npm run audit-log`'s script, in a process of its own. */
const auditCli = () =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/audit-log.ts"], { env: process.env }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
const sql = (text: string, ...values: unknown[]) => m.db.getDb().write((tx) => tx.$executeRawUnsafe(text, ...values));

describe("log audit", () => {
  it("passes a log that grows while it runs, auditing the head it read first", async () => {
    await append(3000);
    let appending = true;
    const load = (async () => {
      while (appending) {
        // A steady trickle, so the log stays small enough for the other tests' audits.
        await append(10);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const runs = [];
    try {
      // As an operator runs it beside a serving log: its own process, while this one appends.
      for (let i = 0; i < 3; i++) runs.push({ run: await auditCli(), headAfter: await head() });
    } finally {
      appending = false;
      await load;
    }
    for (const { run } of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
    const audited = runs.map(({ run }) => Number(/audited (\d+) leaves/.exec(run.stdout)?.[1]));
    // The log grew under every audit, or this would not test what it says.
    for (const [i, { headAfter }] of runs.entries()) expect(headAfter).toBeGreaterThan(audited[i]!);
    const final = await auditLog();
    expect(final).toMatchObject({ problems: [], size: await head() });
    expect(final.checkpoints).toBeGreaterThan(1);
  }, 90_000);

  it("names a leaf whose stored fields changed", async () => {
    await append(5);
    const [victim] = await m.db.getDb().read.attestation.findMany({ orderBy: { logIndex: "desc" }, take: 1 });
    await sql("UPDATE attestations SET payload = ? WHERE id = ?", '{"n":-1}', victim!.id);
    try {
      const { problems } = await auditLog();
      expect(problems.some((p) => /^node 0:\d+ differs from the rebuilt tree$/.test(p))).toBe(true);
    } finally {
      await sql("UPDATE attestations SET payload = ? WHERE id = ?", victim!.payload, victim!.id);
    }
    expect((await auditLog()).problems).toEqual([]);
  });

  it("names rows past the head that no append accounts for", async () => {
    const size = await head();
    await sql('INSERT INTO log_nodes (level, "index", hash) VALUES (0, ?, ?)', size + 5, Buffer.alloc(32, 7));
    try {
      expect((await auditLog()).problems).toEqual([`stored nodes cover leaves up to ${size + 6}, past the log head's ${size}`]);
    } finally {
      await sql('DELETE FROM log_nodes WHERE level = 0 AND "index" = ?', size + 5);
    }
    const stray = entry().row;
    await sql(
      "INSERT INTO attestations (id, tenant_id, issuer_id, kid, payload, signature, status, log_index, created_at) VALUES (?, ?, ?, ?, ?, ?, 'VALID', ?, ?)",
      stray.id,
      stray.tenantId,
      stray.issuerId,
      stray.kid,
      stray.payload,
      stray.signature,
      size + 2,
      stray.createdAt.toISOString(),
    );
    try {
      expect((await auditLog()).problems).toEqual([`an attestation at log position ${size + 2}, past the log head's ${size}`]);
    } finally {
      await sql("DELETE FROM attestations WHERE id = ?", stray.id);
    }
    expect((await auditLog()).problems).toEqual([]);
  });
});
