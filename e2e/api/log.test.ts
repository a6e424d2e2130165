// @hallmark-test db=sqlite,postgres lane=main
import { beforeAll, describe, expect, it } from "vitest";
import { parsePublicKeyPem, verifyCheckpoint, verifyConsistencyProof, verifyProofBundle } from "@/lib/verify";
import { noteKeyId, verifierKey } from "@/lib/verify/checkpoint";
import { base64ToBytes, bytesToHex, concatBytes } from "@/lib/verify/encoding";
import { api, attest, expectProblem, logInfo, proofBundle, orgWithIssuer } from "./helpers";

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("transparency log", () => {
  let key: string;
  let issuerId: string;
  beforeAll(async () => {
    ({ key, issuerId } = await orgWithIssuer());
  });

  it("publishes its identity at GET /v1/log without a key: origin, size, PEM key, note verifier key, key id", async () => {
    await attest(key, issuerId);
    const info = await logInfo();
    expect(info.origin).toMatch(/^[^\s+]+$/);
    expect(Number.isInteger(info.tree_size) && info.tree_size >= 1).toBe(true);
    expect(info.root_hash).toMatch(/^[0-9a-f]{64}$/);
    const raw = parsePublicKeyPem(info.public_key);
    expect(info.key_id).toMatch(/^[0-9a-f]{8}$/);
    expect(info.key_id).toBe(bytesToHex(noteKeyId(info.origin, raw)));
    expect(info.verifier_key).toMatch(new RegExp(`^${escapeRegExp(info.origin)}\\+[0-9a-f]{8}\\+[A-Za-z0-9+/]+=*$`));
    const id = info.verifier_key.slice(info.origin.length + 1, info.origin.length + 9);
    const b64 = info.verifier_key.slice(info.origin.length + 10); // base64 may itself contain "+"
    expect(id).toBe(info.key_id);
    expect(base64ToBytes(b64)).toEqual(concatBytes(new Uint8Array([1]), raw));
    expect(info.verifier_key).toBe(verifierKey(info.origin, raw));
  });

  it("serves the published checkpoint as text/plain that verifies under the published key, soon covering a new attestation", async () => {
    const made = await attest(key, issuerId);
    const info = await logInfo();
    // The suite's log has witnesses: a checkpoint is published once cosigned, within seconds.
    let res = await api("/v1/log/checkpoint");
    for (
      let i = 0;
      i < 100 && verifyCheckpoint(res.text, { publicKey: parsePublicKeyPem(info.public_key) }).treeSize <= made.log_index;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 100));
      res = await api("/v1/log/checkpoint");
    }
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const cp = verifyCheckpoint(res.text, { publicKey: parsePublicKeyPem(info.public_key), origin: info.origin });
    expect(cp.treeSize).toBeGreaterThan(made.log_index);
    const same = (await api(`/v1/log/consistency?first=${cp.treeSize}&second=${cp.treeSize}`)).body;
    expect(same.second.root_hash).toBe(bytesToHex(cp.rootHash));
    expect(() =>
      verifyCheckpoint(res.text.replace(/\n\d+\n/, `\n${cp.treeSize + 1}\n`), { publicKey: parsePublicKeyPem(info.public_key) }),
    ).toThrow();
  });

  it("proves consistency between two published checkpoints, and the proof checks out offline", async () => {
    const info = await logInfo();
    const first = await proofBundle(key, (await attest(key, issuerId)).id);
    for (let i = 0; i < 5; i++) await attest(key, issuerId);
    await Promise.all(Array.from({ length: 6 }, () => attest(key, issuerId)));
    const second = await proofBundle(key, (await attest(key, issuerId)).id);
    const m = first.signed_tree_head.tree_size as number;
    const n = second.signed_tree_head.tree_size as number;
    expect(n).toBeGreaterThanOrEqual(m + 12);
    expect(verifyProofBundle(first, { logPublicKey: info.verifier_key }).ok).toBe(true);

    const res = await api(`/v1/log/consistency?first=${m}&second=${n}`);
    expect(res.status, res.text).toBe(200);
    // The same tree heads the bundles carried, by the log's own Ed25519 signature (a bundle's
    // checkpoint also carries the witnesses' cosignatures and the log's ML-DSA-44 line it had
    // when it was fetched: lines added beside the checkpoint, not part of it).
    const logSigned = (sth: { checkpoint: string }) => ({
      ...sth,
      checkpoint: sth.checkpoint.replace(/\n\n[\s\S]*$/, (sigs) =>
        sigs
          .split("\n")
          .filter(
            (l) =>
              !l.startsWith("\u2014 ") || (l.startsWith(`\u2014 ${info.origin} `) && Buffer.from(l.split(" ")[2]!, "base64").length === 68),
          )
          .join("\n"),
      ),
    });
    expect(logSigned(res.body.first)).toEqual(logSigned(first.signed_tree_head));
    expect(logSigned(res.body.second)).toEqual(logSigned(second.signed_tree_head));
    expect(res.body.hashes.length).toBeGreaterThan(0);
    const input = { first: res.body.first.checkpoint, second: res.body.second.checkpoint, proof: res.body.hashes as string[] };
    const ok = verifyConsistencyProof(input, { logPublicKey: info.public_key, origin: info.origin });
    expect(ok, JSON.stringify(ok)).toMatchObject({ ok: true, first: { treeSize: m }, second: { treeSize: n } });

    const flipped = input.proof.map((h, i) => (i === 0 ? (h[0] === "0" ? "1" : "0") + h.slice(1) : h));
    expect(verifyConsistencyProof({ ...input, proof: flipped }, { logPublicKey: info.public_key }).ok).toBe(false);
    expect(verifyConsistencyProof({ ...input, proof: input.proof.slice(1) }, { logPublicKey: info.public_key }).ok).toBe(false);
  });

  it("answers first = second with an empty proof that verifies", async () => {
    const { tree_size: n, public_key } = await logInfo();
    const res = await api(`/v1/log/consistency?first=${n}&second=${n}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.hashes).toEqual([]);
    const ok = verifyConsistencyProof(
      { first: res.body.first.checkpoint, second: res.body.second.checkpoint, proof: [] },
      { logPublicKey: public_key },
    );
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
  });

  it("rejects bad consistency parameters with 400 problems", async () => {
    await attest(key, issuerId);
    const { tree_size: n } = await logInfo();
    const first = await api(`/v1/log/consistency?first=${n}&second=${n - 1 || 1}`);
    if (n > 1) expectProblem(first, 400, "invalid_parameter");
    const cases: [string, string?][] = [
      ["first=abc&second=1", "/first"],
      ["first=1&second=1.5", "/second"],
      ["first=-1&second=1", "/first"],
      ["first=0&second=1", "/first"],
      ["first=1&second=99999999999999999999", "/second"],
      ["first=1&second=", "/second"],
      ["second=1", "/first"],
      ["first=1", "/second"],
      ["", undefined],
      [`first=${n}&second=${n + 1_000_000}`, "/second"],
      [`first=${n + 1_000_000}&second=${n + 2_000_000}`, undefined],
    ];
    for (const [query, pointer] of cases) {
      const res = await api(`/v1/log/consistency?${query}`);
      expectProblem(res, 400, "invalid_parameter");
      if (pointer)
        expect(
          res.body.errors?.map((e: { pointer: string }) => e.pointer),
          query,
        ).toContain(pointer);
    }
  });

  it("keeps the log append-only as seen by a monitor polling checkpoints", async () => {
    const sizes: number[] = [];
    for (let i = 0; i < 4; i++) {
      await Promise.all(Array.from({ length: 3 }, () => attest(key, issuerId)));
      sizes.push((await logInfo()).tree_size);
    }
    const { public_key } = await logInfo();
    for (let i = 1; i < sizes.length; i++) {
      const res = await api(`/v1/log/consistency?first=${sizes[i - 1]}&second=${sizes[i]}`);
      expect(res.status, res.text).toBe(200);
      const v = verifyConsistencyProof(
        { first: res.body.first.checkpoint, second: res.body.second.checkpoint, proof: res.body.hashes },
        { logPublicKey: public_key },
      );
      expect(v.ok, JSON.stringify(v)).toBe(true);
    }
  });
});
