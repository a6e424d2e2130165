// The public reads a visitor's or an embedding site's request takes (who protected a file, a
// badge, a certificate) beside the bare route of the same answer size in the same rounds (and
// the certificate beside the proof bundle it is drawn around), and the export's
// memory: the server's resident set while it streams an account of 1,000 and of 10,000
// protections.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { compare, fmtRatio } from "./compare";
import type { LoadResult } from "./workload";
import { migrate, type Server, startServer } from "./server";

type Creds = { api_key: string; issuer_id: string; consumer_key: string; sample_ids: string[] };
interface Deps {
  seed(dir: string, leaves: number): Creds;
  fmt(r: LoadResult): string;
  rounds: number;
  seconds: number;
  connections: number;
}

/** Mints `n` protections of fresh hashes (each hash twice: one public, one private), 32 at a time. */
async function mintMany(server: Server, key: string, n: number): Promise<{ ids: string[]; hashes: string[] }> {
  const ids: string[] = [];
  const hashes: string[] = [];
  const one = async (i: number) => {
    const hash = i % 2 === 0 ? randomBytes(32).toString("hex") : hashes[hashes.length - 1]!;
    if (i % 2 === 0) hashes.push(hash);
    const res = await fetch(`${server.url}/v1/consumer/mint`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ content_hash: hash, title: `bench ${i}`, visibility: i % 2 === 0 ? "public" : "private" }),
    });
    if (res.status !== 201) throw new Error(`mint answered ${res.status}: ${await res.text()}`);
    ids.push(((await res.json()) as { protection_id: string }).protection_id);
  };
  for (let i = 0; i < n; i += 32) await Promise.all(Array.from({ length: Math.min(32, n - i) }, (_, j) => one(i + j)));
  return { ids, hashes };
}

const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]);

/** Streams the account's export, reading it as a client would, and samples the server's RSS meanwhile. */
async function exportOnce(server: Server, key: string) {
  const before = rssKiB(server.pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssKiB(server.pid))), 20);
  const started = performance.now();
  const res = await fetch(`${server.url}/v1/consumer/export`, { headers: { "x-api-key": key } });
  if (res.status !== 200) throw new Error(`export answered ${res.status}`);
  let bytes = 0;
  const reader = res.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  return { before, peak, bytes, seconds };
}

export async function publicBench(dir: string, deps: Deps): Promise<string[]> {
  migrate(dir);
  const creds = deps.seed(dir, 1000);
  const server = await startServer(dir);
  try {
    const { ids, hashes } = await mintMany(server, creds.consumer_key, 1000);
    // With a key, as an account's client would (the bench server's endpoint budgets are raised: bench/server.ts).
    const headers = { "x-api-key": creds.consumer_key };
    const common = { headers, connections: deps.connections, seconds: deps.seconds, url: server.url };
    const sizeOf = async (p: string) => (await (await fetch(`${server.url}${p}`, { headers })).arrayBuffer()).byteLength;
    const lookupBytes = await sizeOf(`/v1/lookup?content_hash=${hashes[0]}`);
    const badgeBytes = await sizeOf(`/v1/protections/${ids[0]}/badge.svg`);
    const certificateBytes = await sizeOf(`/v1/protections/${ids[0]}/certificate.pdf`);
    const c = await compare(
      {
        lookup: { ...common, ids: hashes, pathTemplate: "/v1/lookup?content_hash=ID" },
        lookupBare: { ...common, ids: hashes, pathTemplate: `/bench/bare/ID?bytes=${lookupBytes}` },
        badge: { ...common, ids, pathTemplate: "/v1/protections/ID/badge.svg" },
        badgeBare: { ...common, ids, pathTemplate: `/bench/bare/ID?bytes=${badgeBytes}` },
        certificate: { ...common, ids, pathTemplate: "/v1/protections/ID/certificate.pdf" },
        certificateBare: { ...common, ids, pathTemplate: `/bench/bare/ID?bytes=${certificateBytes}` },
        proofBundle: { ...common, ids, pathTemplate: "/v1/protections/ID/proof-bundle" },
      },
      deps.rounds,
    );
    const r = c.mean;
    const lines = [
      `GET /v1/lookup (a hash protected twice, one public) ${deps.fmt(r.lookup)}; errors ${r.lookup.errors}`,
      `GET /v1/protections/{id}/badge.svg ${deps.fmt(r.badge)}; errors ${r.badge.errors}`,
      `bare GET route of the same URL shape and answer size: ${deps.fmt(r.lookupBare)} (lookup's), ${deps.fmt(r.badgeBare)} (badge's)`,
      `ratio lookup/bare ${fmtRatio(c.ratio("lookup", "lookupBare"))}; badge/bare ${fmtRatio(c.ratio("badge", "badgeBare"))}`,
      `GET /v1/protections/{id}/certificate.pdf (${(certificateBytes / 1024).toFixed(0)} KiB) ${deps.fmt(r.certificate)}; errors ${r.certificate.errors}`,
      `GET /v1/protections/{id}/proof-bundle ${deps.fmt(r.proofBundle)}; bare of the certificate's size ${deps.fmt(r.certificateBare)}`,
      `ratio certificate/proof-bundle ${fmtRatio(c.ratio("certificate", "proofBundle"))}; certificate/bare ${fmtRatio(c.ratio("certificate", "certificateBare"))}`,
    ];
    const small = await exportOnce(server, creds.consumer_key);
    await mintMany(server, creds.consumer_key, 9000);
    const large = await exportOnce(server, creds.consumer_key);
    const mb = (kib: number) => (kib / 1024).toFixed(0);
    for (const [n, e] of [
      ["1,000", small],
      ["10,000", large],
    ] as const) {
      lines.push(
        `export of ${n} protections: ${(e.bytes / 1e6).toFixed(1)} MB in ${e.seconds.toFixed(1)} s; server RSS ${mb(e.before)} MB before, ${mb(e.peak)} MB at most (+${mb(e.peak - e.before)} MB)`,
      );
    }
    return lines;
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
