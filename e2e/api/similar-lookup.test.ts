// @hallmark-test db=sqlite,postgres lane=main
// Perceptual fingerprints: minted with a protection (signed with a public one, sealed with a
// private one), and GET /v1/lookup?pdq=: public protections within the distance, nearest first
// then oldest; nothing of a private one, at any distance; low-quality fingerprints never matched.
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyProofBundle } from "@/lib/verify";
import { parsePublicKeyPem, verifyCheckpoint } from "@/lib/verify";
import { tilePath } from "@/lib/verify/tiles";
import { seedConsumer } from "../accounts";
import { api, baseUrl, expectProblem, logInfo, logKey, mint, randomContentHash } from "./helpers";

const newClient = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join(".")}`;
const lookup = (query: string) => api(`/v1/lookup?${query}`, { headers: { "x-forwarded-for": newClient() } });

const randomPdq = () => randomBytes(32).toString("hex");
/** The hash with the given bit positions (0–255, as the hash's integer) flipped. */
function flip(hash: string, bits: number[]): string {
  const n = bits.reduce((h, b) => h ^ (1n << BigInt(b)), BigInt(`0x${hash}`));
  return n.toString(16).padStart(64, "0");
}
/** `count` bit positions spread over the 16 windows: window k holds bits 255−16k … 240−16k. */
const spread = (perWindow: number[]) => perWindow.flatMap((n, k) => Array.from({ length: n }, (_, i) => 255 - 16 * k - i * 5));

async function protect(pdq: string, quality: number, body: Record<string, unknown> = {}) {
  const consumer = await seedConsumer({ name: `Creator ${randomUUID().slice(0, 8)}` });
  const res = await mint(consumer.apiKey, {
    content_hash: randomContentHash(),
    fingerprints: [{ alg: "pdq", hash: pdq, quality }],
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return { ...consumer, id: res.body.protection_id as string, at: res.body.protected_at as string };
}

describe("fingerprints minted with a protection", () => {
  it("are signed into a public protection's attestation, which its proof covers", async () => {
    const pdq = randomPdq();
    const p = await protect(pdq.toUpperCase(), 87, { visibility: "public" });
    const bundle = await api(`/v1/protections/${p.id}/proof-bundle`);
    expect(bundle.status, bundle.text).toBe(200);
    expect(bundle.body.attestation.payload.fingerprints).toEqual([{ alg: "pdq", hash: pdq, quality: 87 }]);
    expect(verifyProofBundle(bundle.body, { logPublicKey: await logKey() }).ok).toBe(true);
  });

  it("stay out of the public log for a private protection, as its content hash does", async () => {
    const pdq = randomPdq();
    const p = await protect(pdq, 90, { visibility: "private" });
    const own = await api(`/v1/consumer/protections/${p.id}/proof-bundle`, { key: p.apiKey });
    expect(own.status, own.text).toBe(200);
    expect(JSON.stringify(own.body)).toContain(pdq);
    const info = await logInfo();
    const size = verifyCheckpoint((await api("/v1/log/checkpoint")).text, {
      publicKey: parsePublicKeyPem(info.public_key),
      origin: info.origin,
    }).treeSize;
    let published = "";
    for (let n = 0; n * 256 < size; n++) {
      const res = await fetch(`${baseUrl}/v1/log/${tilePath({ level: "entries", index: n, width: Math.min(256, size - n * 256) })}`);
      published += Buffer.from(await res.arrayBuffer()).toString("latin1");
    }
    expect(published.length).toBeGreaterThan(0);
    expect(published).not.toContain(pdq);
  });

  it("refuse a malformed fingerprint with 422 and a pointer, and mint nothing", async () => {
    const c = await seedConsumer();
    const bad = [
      [{ alg: "pdq", hash: "ab".repeat(31), quality: 80 }, "/fingerprints/0/hash"],
      [{ alg: "pdq", hash: "zz".repeat(32), quality: 80 }, "/fingerprints/0/hash"],
      [{ alg: "pdq", hash: randomPdq(), quality: 101 }, "/fingerprints/0/quality"],
      [{ alg: "pdq", hash: randomPdq(), quality: 50.5 }, "/fingerprints/0/quality"],
      [{ alg: "md5", hash: randomPdq(), quality: 80 }, "/fingerprints/0/alg"],
      [{ alg: "pdq", hash: randomPdq(), quality: 80, extra: 1 }, "/fingerprints/0"],
    ] as const;
    for (const [fingerprint, pointer] of bad) {
      const res = await mint(c.apiKey, { content_hash: randomContentHash(), fingerprints: [fingerprint] });
      expectProblem(res, 422, "validation_failed");
      expect(JSON.stringify(res.body.errors), JSON.stringify(fingerprint)).toContain(pointer);
    }
    const twice = await mint(c.apiKey, {
      content_hash: randomContentHash(),
      fingerprints: [1, 2].map(() => ({ alg: "pdq", hash: randomPdq(), quality: 80 })),
    });
    expectProblem(twice, 422, "validation_failed");
    expect((await api("/v1/consumer/usage", { key: c.apiKey })).body.used).toBe(0);
  });
});

describe("lookup by PDQ hash", () => {
  it("lists public protections within the distance, nearest first then oldest, and nothing of a private one", async () => {
    const query = randomPdq();
    const secret = `secret-${randomUUID().slice(0, 8)}`;
    const far = await protect(flip(query, spread([3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0])), 90, { visibility: "public" });
    const near5 = await protect(flip(query, spread([1, 1, 1, 1, 1])), 90, { visibility: "public", title: "Near" });
    const exact = await protect(query, 95, { visibility: "public", title: "Original", category: "media" });
    const near5Later = await protect(flip(query, spread([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])), 70, { visibility: "public" });
    const hidden = await protect(flip(query, [7, 8, 9]), 90, { visibility: "private", title: secret, file_name: `${secret}.jpg` });
    const featureless = await protect(query, 30, { visibility: "public", title: "Low quality" });

    const res = await lookup(`pdq=${query}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ pdq: query, max_distance: 31, total: 3 });
    expect(res.body.private).toBeUndefined();
    expect(res.body.content_hash).toBeUndefined();
    expect(res.body.first_protected_at).toBe(near5.at);
    expect(res.body.items.map((i: { protection_id: string; distance: number }) => [i.protection_id, i.distance])).toEqual([
      [exact.id, 0],
      [near5.id, 5],
      [near5Later.id, 5],
    ]);
    expect(res.body.items[0]).toEqual({
      protection_id: exact.id,
      creator: { name: exact.name, portfolio_url: `${baseUrl}/portfolio/${exact.userId}` },
      title: "Original",
      category: "media",
      protected_at: exact.at,
      log_index: expect.any(Number),
      verify_url: `${baseUrl}/verify/${exact.id}`,
      share_url: `${baseUrl}/share/${exact.id}`,
      proof_bundle_url: `${baseUrl}/v1/protections/${exact.id}/proof-bundle`,
      tlog_proof_url: `${baseUrl}/v1/protections/${exact.id}/tlog-proof`,
      distance: 0,
    });
    for (const leak of [secret, hidden.id, hidden.userId, hidden.name, hidden.at, far.id, featureless.id])
      expect(res.text).not.toContain(leak);

    const closer = await lookup(`pdq=${query}&max_distance=4`);
    expect(closer.status, closer.text).toBe(200);
    expect(closer.body.items.map((i: { protection_id: string }) => i.protection_id)).toEqual([exact.id]);
    // A picture only a private protection holds answers as a picture no one holds, at any distance.
    const onlyPrivate = randomPdq();
    await protect(onlyPrivate, 90, { visibility: "private" });
    const unknown = randomPdq();
    for (const d of [0, 5, 20, 31]) {
      const [a, b] = [await lookup(`pdq=${onlyPrivate}&max_distance=${d}`), await lookup(`pdq=${unknown}&max_distance=${d}`)];
      expect([a.status, { ...a.body, pdq: "x" }]).toEqual([b.status, { ...b.body, pdq: "x" }]);
    }
    const page = await lookup(`pdq=${query}&limit=1&offset=1`);
    expect(page.body.items.map((i: { protection_id: string }) => i.protection_id)).toEqual([near5.id]);
    expect(page.body.total).toBe(3);
  });

  it("finds a picture at distance 31 however its bits are spread, and none at 32", async () => {
    const query = randomPdq();
    // 31: fifteen windows with 2 bits and one with 1; 32: 2 bits in every window.
    const at31 = await protect(flip(query, spread([2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1])), 80, { visibility: "public" });
    const at32 = await protect(flip(query, spread(Array(16).fill(2))), 80, { visibility: "public" });
    const at16 = await protect(flip(query, spread(Array(16).fill(1))), 80, { visibility: "public" });
    const res = await lookup(`pdq=${query}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((i: { protection_id: string; distance: number }) => [i.protection_id, i.distance])).toEqual([
      [at16.id, 16],
      [at31.id, 31],
    ]);
    expect(res.text).not.toContain(at32.id);
    const strict = await lookup(`pdq=${query}&max_distance=15`);
    expect(strict.body.total).toBe(0);
  });

  it("answers an unknown picture with an empty result", async () => {
    const res = await lookup(`pdq=${randomPdq()}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ pdq: res.body.pdq, max_distance: 31, first_protected_at: null, items: [], total: 0 });
  });

  it("refuses a malformed query with 400 and a pointer", async () => {
    const cases = [
      ["pdq=abc", "/pdq"],
      [`pdq=${"g".repeat(64)}`, "/pdq"],
      [`pdq=${randomPdq()}&max_distance=32`, "/max_distance"],
      [`pdq=${randomPdq()}&max_distance=-1`, "/max_distance"],
      [`content_hash=${randomContentHash()}&max_distance=3`, "/max_distance"],
      [`content_hash=${randomContentHash()}&pdq=${randomPdq()}`, "/content_hash"],
      ["", "/content_hash"],
    ] as const;
    for (const [query, pointer] of cases) {
      const res = await lookup(query);
      expectProblem(res, 400, "invalid_parameter");
      expect(res.body.errors?.[0]?.pointer, query).toBe(pointer);
    }
  });
});
