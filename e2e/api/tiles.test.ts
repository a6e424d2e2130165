// @hallmark-test db=sqlite,postgres lane=main
// The log as C2SP tiles, checked against a from-scratch tree: every leaf from the entry
// bundles is hashed and the tree rebuilt with the RFC's recursive definition (merkle-reference),
// independent of the server's tree code and of lib/verify's.
import { beforeAll, describe, expect, it } from "vitest";
import { get } from "node:http";
import { gunzipSync } from "node:zlib";
import { parsePublicKeyPem, verifyCheckpoint } from "@/lib/verify";
import { bytesToBase64 } from "@/lib/verify/encoding";
import { decodeEntryBundle, partialTileWidth, tileHashes, tilePath } from "@/lib/verify/tiles";
import { refLeafHash, refMth } from "@/lib/verify/testing/merkle-reference";
import { api, attest, baseUrl, expectProblem, logInfo, orgWithIssuer } from "./helpers";
import { assertDescribed } from "./openapi-conformance";

async function bytes(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: Uint8Array }> {
  const res = await fetch(`${baseUrl}/v1/log/${path}`, { headers });
  const body = new Uint8Array(await res.arrayBuffer());
  // A tile is bytes; a refusal is JSON the OpenAPI document must describe, like every answer.
  const text = res.headers.get("content-type")?.includes("json") ? new TextDecoder().decode(body) : "";
  await assertDescribed(baseUrl, "GET", `/v1/log/${path}`, res.status, res.headers, text);
  return { status: res.status, headers: res.headers, body };
}

const chunks = <T>(xs: T[], n: number): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));

describe("the log as tiles (C2SP tlog-tiles)", () => {
  let treeSize: number;
  let rootB64: string;
  let leaves: Uint8Array[];

  beforeAll(async () => {
    const { key, issuerId } = await orgWithIssuer();
    // More than one full tile's worth, whatever the other tests have written.
    let last = 0;
    for (let i = 0; i < 6; i++)
      last = Math.max(last, ...(await Promise.all(Array.from({ length: 50 }, () => attest(key, issuerId)))).map((a) => a.log_index));
    const info = await logInfo();
    // The published checkpoint follows once witnessed (within seconds).
    const published = async () =>
      verifyCheckpoint((await api("/v1/log/checkpoint")).text, { publicKey: parsePublicKeyPem(info.public_key), origin: info.origin });
    let cp = await published();
    for (let i = 0; i < 100 && cp.treeSize <= last; i++) {
      await new Promise((r) => setTimeout(r, 100));
      cp = await published();
    }
    treeSize = cp.treeSize;
    rootB64 = bytesToBase64(cp.rootHash);
    leaves = [];
    const full = Math.floor(treeSize / 256);
    for (let n = 0; n < full; n++)
      leaves.push(...decodeEntryBundle((await bytes(tilePath({ level: "entries", index: n, width: 256 }))).body, 256));
    const rest = partialTileWidth(0, treeSize);
    if (rest > 0) leaves.push(...decodeEntryBundle((await bytes(tilePath({ level: "entries", index: full, width: rest }))).body, rest));
  }, 120_000);

  it("serves every entry of the checkpoint's tree, and the tree rebuilt from them has the checkpoint's root", () => {
    expect(treeSize).toBeGreaterThanOrEqual(300);
    expect(leaves.length).toBe(treeSize);
    expect(bytesToBase64(refMth(leaves))).toBe(rootB64);
    const first = JSON.parse(new TextDecoder().decode(leaves[treeSize - 1]));
    expect(Object.keys(first)).toEqual(["created_at", "id", "issuer_id", "kid", "payload", "signature"]);
  });

  it("serves level-0 tiles whose hashes are the entries' leaf hashes, full and partial", async () => {
    for (const group of chunks(leaves, 256)) {
      const index = leaves.indexOf(group[0]!) / 256;
      const res = await bytes(tilePath({ level: 0, index, width: group.length }));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/octet-stream");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(tileHashes(res.body, group.length).map(bytesToBase64)).toEqual(group.map((l) => bytesToBase64(refLeafHash(l))));
    }
  });

  it("serves level-1 tiles: each hash is the root of 256 leaves", async () => {
    const width = Math.floor(treeSize / 256);
    const res = await bytes(tilePath({ level: 1, index: 0, width }));
    expect(res.status).toBe(200);
    const expected = Array.from({ length: width }, (_, i) => bytesToBase64(refMth(leaves.slice(i * 256, (i + 1) * 256))));
    expect(tileHashes(res.body, width).map(bytesToBase64)).toEqual(expected);
  });

  it("a partial tile narrower than the tree's is served too (it is immutable), a wider one is not", async () => {
    const full = Math.floor(treeSize / 256);
    const narrow = await bytes(tilePath({ level: 0, index: full - 1, width: 3 }));
    expect(tileHashes(narrow.body, 3).map(bytesToBase64)).toEqual(
      leaves.slice((full - 1) * 256, (full - 1) * 256 + 3).map((l) => bytesToBase64(refLeafHash(l))),
    );
    // Beyond the tree (other tests write meanwhile, so well beyond).
    expectProblem(await api(`/v1/log/${tilePath({ level: 0, index: full + 1000, width: 1 })}`), 404, "not_found");
    expectProblem(await api(`/v1/log/${tilePath({ level: "entries", index: full + 1000, width: 256 })}`), 404, "not_found");
    expectProblem(await api(`/v1/log/${tilePath({ level: 1, index: 0, width: 255 })}`), 404, "not_found");
    expectProblem(await api(`/v1/log/${tilePath({ level: 2, index: 0, width: 256 })}`), 404, "not_found");
  });

  it("answers only the canonical path of a tile", async () => {
    for (const path of [
      "tile/0/0",
      "tile/0/00",
      "tile/0/0000",
      "tile/00/000",
      "tile/0/x000/000",
      "tile/0/x1/000",
      "tile/0/000.p/0",
      "tile/0/000.p/256",
      "tile/0/000.p/01",
      "tile/64/000",
      "tile/entries",
      "tile/-1/000",
      "tile/0/000.p",
    ]) {
      const res = await api(`/v1/log/${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    }
    expectProblem(await api("/v1/log/tile/0/000", { method: "POST", raw: "" }), 405, "method_not_allowed");
  });

  it("compresses entry bundles for a client that accepts gzip", async () => {
    // fetch decodes the gzip it was sent; node:http hands over the bytes as they came.
    const path = `/v1/log/${tilePath({ level: "entries", index: 0, width: 256 })}`;
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      get(`${baseUrl}${path}`, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const parts: Buffer[] = [];
        res
          .on("data", (d: Buffer) => parts.push(d))
          .on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(parts) }));
      }).on("error", reject);
    });
    expect(raw.encoding).toBe("gzip");
    expect(raw.body.length).toBeLessThan(leaves.slice(0, 256).reduce((n, l) => n + 2 + l.length, 0));
    expect(decodeEntryBundle(new Uint8Array(gunzipSync(raw.body)), 256).map(bytesToBase64)).toEqual(
      leaves.slice(0, 256).map(bytesToBase64),
    );
    const plain = await fetch(`${baseUrl}${path}`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
  });
});
