// Sealed entries: what the public log holds for a private protection (or an attestation an
// organisation asked to seal) is a commitment, signed by the deployment's sealing issuer, that
// only the owner's proof opens. Read from the tiles as any monitor reads them.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parsePublicKeyPem, verifyCheckpoint, verifyProofBundle } from "@/lib/verify";
import { utf8Decode } from "@/lib/verify/encoding";
import { decodeEntryBundle, tilePath } from "@/lib/verify/tiles";
import { seedConsumer } from "../accounts";
import { api, baseUrl, expectProblem, logInfo, mint, orgWithIssuer, randomContentHash } from "./helpers";
import { SEALED_CHECKS } from "@/lib/verify";

type Leaf = { id: string; issuer_id: string; kid: string; payload: Record<string, unknown>; created_at: string; signature: string };

/** Every leaf of the published tree, from the entry bundles (full tiles, then the partial one). */
async function publishedLeaves(atLeast: number): Promise<Leaf[]> {
  const info = await logInfo();
  let size = 0;
  for (let i = 0; i < 100; i++) {
    size = verifyCheckpoint((await api("/v1/log/checkpoint")).text, {
      publicKey: parsePublicKeyPem(info.public_key),
      origin: info.origin,
    }).treeSize;
    if (size > atLeast) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const out: Leaf[] = [];
  for (let n = 0; n * 256 < size; n++) {
    const width = Math.min(256, size - n * 256);
    const res = await fetch(`${baseUrl}/v1/log/${tilePath({ level: "entries", index: n, width })}`);
    expect(res.status).toBe(200);
    for (const e of decodeEntryBundle(new Uint8Array(await res.arrayBuffer()), width)) out.push(JSON.parse(utf8Decode(e)) as Leaf);
  }
  return out;
}

interface Owned {
  owner: string;
  logIndex: number;
  attestationId: string;
  secrets: string[];
  issuerId: string;
  kid: string;
}

describe("sealed entries in the public log", () => {
  const sealed: Owned[] = [];
  const open: Owned[] = [];
  let leaves: Leaf[];
  let vkey: string;

  beforeAll(async () => {
    vkey = (await logInfo()).verifier_key;
    for (const owner of ["a", "b"]) {
      const c = await seedConsumer();
      for (const visibility of ["private", "private", "public"]) {
        const hash = randomContentHash();
        const title = `title-${owner}-${hash.slice(0, 12)}`;
        const m = await mint(c.apiKey, { content_hash: hash, title, category: "writing", visibility });
        expect(m.status, m.text).toBe(201);
        const b = (await api(`/v1/attestations/${m.body.attestation_id}/proof-bundle`, { key: c.apiKey })).body;
        const entry = {
          owner,
          logIndex: b.attestation.log_index,
          attestationId: m.body.attestation_id,
          secrets: [hash, m.body.protection_id, title, b.attestation.issuer_id, b.attestation.kid, b.attestation.signature],
          issuerId: b.attestation.issuer_id,
          kid: b.attestation.kid,
        };
        (visibility === "private" ? sealed : open).push(entry);
      }
    }
    const org = await orgWithIssuer();
    for (const seal of [true, true, false]) {
      const marker = randomContentHash();
      const r = await api("/v1/attestations", { key: org.key, json: { issuer_id: org.issuerId, payload: { doc: marker }, sealed: seal } });
      expect(r.status, r.text).toBe(201);
      expect(r.body.sealed === true).toBe(seal);
      const entry = {
        owner: "org",
        logIndex: r.body.log_index,
        attestationId: r.body.id,
        secrets: [marker, org.issuerId, r.body.kid, r.body.signature],
        issuerId: org.issuerId,
        kid: r.body.kid,
      };
      (seal ? sealed : open).push(entry);
    }
    leaves = await publishedLeaves(Math.max(...[...sealed, ...open].map((e) => e.logIndex)));
  });

  it("hold only a commitment, its type, the entry's id and time, and the sealing issuer's signature", () => {
    for (const e of sealed) {
      const leaf = leaves[e.logIndex]!;
      expect(leaf.id).toBe(e.attestationId);
      expect(Object.keys(leaf.payload).sort()).toEqual(["commitment", "type"]);
      expect(leaf.payload.type).toBe("hallmark.sealed/v1");
      expect(leaf.payload.commitment).toMatch(/^sha256:[0-9a-f]{64}$/);
      const text = JSON.stringify(leaf);
      for (const secret of e.secrets) expect(text).not.toContain(secret);
      expect(text).not.toContain("writing");
      expect(text).not.toContain("hallmark.protection/v1");
    }
    // The public ones are logged as they are: the contrast shows the search above can find things.
    for (const e of open) expect(JSON.stringify(leaves[e.logIndex])).toContain(e.secrets[0]);
  });

  it("share nothing between two sealed entries of one owner that differs between owners", () => {
    const fields = (l: Leaf) => ({
      id: l.id,
      issuer_id: l.issuer_id,
      kid: l.kid,
      commitment: String(l.payload.commitment),
      created_at: l.created_at,
      signature: l.signature,
    });
    const byOwner = new Map<string, ReturnType<typeof fields>[]>();
    for (const e of sealed) byOwner.set(e.owner, [...(byOwner.get(e.owner) ?? []), fields(leaves[e.logIndex]!)]);
    const all = [...byOwner.values()].flat();
    for (const mine of byOwner.values()) {
      for (const [k, v] of Object.entries(mine[0]!) as [keyof ReturnType<typeof fields>, string][]) {
        if (mine[1]![k] !== v) continue;
        // Shared within one owner's pair: then shared by every sealed entry of every owner.
        for (const other of all) expect(other[k], `field ${k}`).toBe(v);
      }
    }
    // What every sealed leaf shares is the sealing issuer and key: no owner's.
    const owners = new Set([...sealed, ...open].flatMap((e) => [e.issuerId, e.kid]));
    for (const l of all) {
      expect(owners.has(l.issuer_id)).toBe(false);
      expect(owners.has(l.kid)).toBe(false);
    }
  });

  it("open for their owner: the bundle verifies with its seal, and the CLI checks the tlog-proof's opening", async () => {
    const c = await seedConsumer();
    const hash = randomContentHash();
    const m = await mint(c.apiKey, { content_hash: hash, visibility: "private" });
    const res = await api(`/v1/attestations/${m.body.attestation_id}/proof-bundle`, { key: c.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.attestation.payload.content_hash).toBe(`sha256:${hash}`);
    expect(res.body.attestation.sealed).toBe(true);
    expect(res.body.seal.leaf.payload.type).toBe("hallmark.sealed/v1");
    const ok = verifyProofBundle(res.body, { logPublicKey: vkey });
    expect(ok.ok && ok.checks.map((x) => x.name)).toEqual(SEALED_CHECKS);
    // Another account gets nothing.
    const stranger = await seedConsumer();
    expect((await api(`/v1/attestations/${m.body.attestation_id}/proof-bundle`, { key: stranger.apiKey })).status).toBe(404);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-sealed-"));
    const verify = (...args: string[]) => spawnSync("npm", ["run", "-s", "verify", "--", ...args], { encoding: "utf8" });
    const bundleFile = path.join(dir, "bundle.json");
    fs.writeFileSync(bundleFile, res.text);
    const good = verify(bundleFile, "--log-key", vkey);
    expect(good.status, good.stderr + good.stdout).toBe(0);
    expect(good.stdout).toContain("pass seal_opening");
    const wrongSalt = structuredClone(res.body);
    const salt = Buffer.from(wrongSalt.seal.salt, "base64");
    salt[5]! ^= 0x40;
    wrongSalt.seal.salt = salt.toString("base64");
    fs.writeFileSync(bundleFile, JSON.stringify(wrongSalt));
    const bad = verify(bundleFile, "--log-key", vkey);
    expect(bad.status).toBe(1);
    expect(bad.stdout + bad.stderr).toMatch(/FAIL seal_opening: .*commitment does not match/);

    const proof = await api(`/v1/attestations/${m.body.attestation_id}/tlog-proof`, { key: c.apiKey });
    expect(proof.status).toBe(200);
    const proofFile = path.join(dir, "entry.tlog-proof");
    fs.writeFileSync(proofFile, proof.text);
    const fromProof = verify(proofFile, "--log-key", vkey);
    expect(fromProof.status, fromProof.stderr + fromProof.stdout).toBe(0);
    expect(fromProof.stdout).toContain("pass seal_opening");
    expect(fromProof.stdout).toContain(`content_hash sha256:${hash}`);
  });

  it("lists for the operator the private protections whose entries are readable: public once, made private later", async () => {
    const c = await seedConsumer();
    const once = await mint(c.apiKey, { content_hash: randomContentHash(), visibility: "public" });
    const sealedOne = await mint(c.apiKey, { content_hash: randomContentHash(), visibility: "private" });
    const hidden = await api(`/v1/consumer/protections/${once.body.protection_id}`, {
      key: c.apiKey,
      method: "PATCH",
      json: { visibility: "private" },
    });
    expect(hidden.status, hidden.text).toBe(200);
    expect(hidden.body.sealed).toBeUndefined();
    const r = spawnSync("npm", ["run", "-s", "admin", "--", "readable-private", "--json"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const listed = r.stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { protection_id: string; email: string; log_index: number });
    const mine = listed.find((p) => p.protection_id === once.body.protection_id);
    expect(mine).toMatchObject({ email: c.email });
    expect(listed.some((p) => p.protection_id === sealedOne.body.protection_id)).toBe(false);
  });

  it("seals the items of a batch that ask for it, in one group of contiguous entries, each proof verifying", async () => {
    const org = await orgWithIssuer();
    const items = [true, false, true].map((sealed) => ({ issuer_id: org.issuerId, payload: { doc: randomContentHash() }, sealed }));
    const res = await api("/v1/attestations/batch", { key: org.key, json: { items } });
    expect(res.status, res.text).toBe(201);
    const answers = res.body.attestations as { id: string; log_index: number; sealed?: true }[];
    expect(answers.map((a) => a.sealed === true)).toEqual([true, false, true]);
    expect(answers.map((a) => a.log_index - answers[0]!.log_index)).toEqual([0, 1, 2]);
    for (const a of answers) {
      const b = (await api(`/v1/attestations/${a.id}/proof-bundle`, { key: org.key })).body;
      expect(b.seal !== undefined).toBe(a.sealed === true);
      expect(verifyProofBundle(b, { logPublicKey: vkey }).ok).toBe(true);
    }
    const logged = await publishedLeaves(answers[2]!.log_index);
    expect(answers.map((a) => logged[a.log_index]!.payload.type === "hallmark.sealed/v1")).toEqual([true, false, true]);
    expectProblem(await api("/v1/attestations", { key: org.key, json: { ...items[0], sealed: "yes" } }), 422, "validation_failed");
  });
});
