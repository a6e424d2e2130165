// @hallmark-test db=sqlite,postgres lane=main
// Sealed entries: what the public log holds for a private protection (or an attestation an
// organisation asked to seal) is a commitment, signed by the deployment's sealing issuer, that
// only the owner's proof opens. Read from the tiles as any monitor reads them.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SEALED_CHECKS, verifyProofBundle } from "@/lib/verify";
import { cli } from "../cli";
import { seedConsumer } from "../accounts";
import { api, baseUrl, expectProblem, logInfo, mint, orgWithIssuer, randomContentHash } from "./helpers";
import { type Leaf, leafHolding, publishedLeaves, strangersBundle, strangersTlogProof } from "../public-log";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Owned {
  owner: string;
  logIndex: number;
  attestationId: string;
  createdAt: string;
  /** The entry's own: no leaf of the log may hold one. */
  secrets: string[];
  /** Its owner's (issuer, key, account): only the owner's own open entries' leaves may hold one. */
  ownerSecrets: string[];
  issuerId: string;
  kid: string;
}

/** An exact time is the entry's secret; a sealed leaf shows its second, so a time of .000 says nothing more. */
const exactTime = (t: string) => (t.endsWith(".000Z") ? [] : [t]);

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
          createdAt: b.attestation.created_at,
          secrets: [
            hash,
            m.body.protection_id,
            m.body.attestation_id,
            ...exactTime(b.attestation.created_at),
            title,
            b.attestation.signature,
          ],
          ownerSecrets: [b.attestation.issuer_id, b.attestation.kid, c.userId, c.email],
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
        createdAt: r.body.created_at,
        secrets: [marker, r.body.id, ...exactTime(r.body.created_at), r.body.signature],
        ownerSecrets: [org.issuerId, r.body.kid],
        issuerId: org.issuerId,
        kid: r.body.kid,
      };
      (seal ? sealed : open).push(entry);
    }
    leaves = await publishedLeaves(baseUrl, Math.max(...[...sealed, ...open].map((e) => e.logIndex)));
  });

  it("hold only a commitment, its type, an id of their own, the entry's second and the sealing issuer's signature", () => {
    for (const e of sealed) {
      const leaf = leaves[e.logIndex]!;
      expect(leaf.id).toMatch(UUID_V4);
      expect(leaf.id).not.toBe(e.attestationId);
      expect(leaf.created_at).toBe(`${e.createdAt.slice(0, 19)}.000Z`);
      expect(Object.keys(leaf.payload).sort()).toEqual(["commitment", "type"]);
      expect(leaf.payload.type).toBe("hallmark.sealed/v2");
      expect(leaf.payload.commitment).toMatch(/^sha256:[0-9a-f]{64}$/);
      const text = JSON.stringify(leaf);
      expect(text).not.toContain("writing");
      expect(text).not.toContain("hallmark.protection/v1");
    }
  });

  it("give nothing of theirs to any leaf of the log: every secret is checked against every leaf", () => {
    // The whole log, every test's entries included: no leaf anywhere holds a sealed entry's
    // hash, ids, exact time, title, owner, issuer, key or signature.
    for (const e of sealed) {
      for (const secret of e.secrets) expect(leafHolding(leaves, secret), `${e.owner}: ${secret}`).toBeUndefined();
      const ownOpen = new Set(open.filter((o) => o.owner === e.owner).map((o) => o.logIndex));
      const others = leaves.filter((_, i) => !ownOpen.has(i));
      for (const secret of e.ownerSecrets) expect(leafHolding(others, secret), `${e.owner}: ${secret}`).toBeUndefined();
    }
    // The public ones are logged as they are: the contrast shows the search can find things.
    for (const e of open) expect(leafHolding(leaves, e.secrets[0]!)).toBe(leaves[e.logIndex]);
  });

  it("share nothing between two sealed entries of one owner that differs between owners", () => {
    // created_at is left out: it is the entry's second, which every entry of that second shares.
    const fields = (l: Leaf) => ({
      id: l.id,
      issuer_id: l.issuer_id,
      kid: l.kid,
      commitment: String(l.payload.commitment),
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

  it("taken from the tiles alone, verify with the CLI as sealed entries that name nothing", async () => {
    const e = sealed.find((x) => x.owner === "a")!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-sealed-alone-"));
    const verify = (...args: string[]) => spawnSync(...cli("verify", ...args), { encoding: "utf8" });
    const bundleFile = path.join(dir, "alone.json");
    fs.writeFileSync(bundleFile, JSON.stringify(await strangersBundle(baseUrl, e.logIndex)));
    const proofFile = path.join(dir, "alone.tlog-proof");
    fs.writeFileSync(proofFile, await strangersTlogProof(baseUrl, e.logIndex));
    for (const file of [bundleFile, proofFile]) {
      const r = verify(file, "--log-key", vkey);
      expect(r.status, r.stderr + r.stdout).toBe(0);
      expect(r.stdout).toContain("note sealed_entry: a sealed entry");
      expect(r.stdout).toMatch(/^OK sealed entry/m);
      for (const secret of [...e.secrets, ...e.ownerSecrets]) expect(r.stdout).not.toContain(secret);
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
    expect(res.body.seal.leaf.payload.type).toBe("hallmark.sealed/v2");
    expect(res.body.seal.leaf.id).toMatch(UUID_V4);
    const ok = verifyProofBundle(res.body, { logPublicKey: vkey });
    expect(ok.ok && ok.checks.map((x) => x.name)).toEqual(SEALED_CHECKS);
    // Another account gets nothing.
    const stranger = await seedConsumer();
    expect((await api(`/v1/attestations/${m.body.attestation_id}/proof-bundle`, { key: stranger.apiKey })).status).toBe(404);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-sealed-"));
    const verify = (...args: string[]) => spawnSync(...cli("verify", ...args), { encoding: "utf8" });
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
    const r = spawnSync(...cli("admin", "readable-private", "--json"), { encoding: "utf8" });
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

  it("seals a batch whose items all ask for it, in contiguous entries, and refuses a batch that mixes sealed and open items", async () => {
    const org = await orgWithIssuer();
    const item = (sealed: boolean) => ({ issuer_id: org.issuerId, payload: { doc: randomContentHash() }, sealed });
    const res = await api("/v1/attestations/batch", { key: org.key, json: { items: [item(true), item(true), item(true)] } });
    expect(res.status, res.text).toBe(201);
    const answers = res.body.attestations as { id: string; log_index: number; sealed?: true }[];
    expect(answers.map((a) => a.sealed)).toEqual([true, true, true]);
    expect(answers.map((a) => a.log_index - answers[0]!.log_index)).toEqual([0, 1, 2]);
    for (const a of answers) {
      const b = (await api(`/v1/attestations/${a.id}/proof-bundle`, { key: org.key })).body;
      expect(b.seal.leaf.id).not.toBe(a.id);
      expect(verifyProofBundle(b, { logPublicKey: vkey }).ok).toBe(true);
    }
    const logged = await publishedLeaves(baseUrl, answers[2]!.log_index);
    const ids = answers.map((a) => logged[a.log_index]!);
    expect(ids.map((l) => l.payload.type)).toEqual(["hallmark.sealed/v2", "hallmark.sealed/v2", "hallmark.sealed/v2"]);
    expect(new Set(ids.map((l) => l.id)).size).toBe(3);

    // Mixed: refused whole, at its first sealed item, and nothing is written.
    const before = (await logInfo()).tree_size;
    for (const [items, first] of [
      [[item(false), item(true), item(false), item(true)], 1],
      [[item(true), item(false)], 0],
      [[{ issuer_id: org.issuerId, payload: { doc: "x" } }, item(true)], 1],
    ] as const) {
      const mixed = await api("/v1/attestations/batch", { key: org.key, json: { items } });
      expectProblem(mixed, 422, "validation_failed");
      expect(mixed.body.errors).toEqual([{ pointer: `/items/${first}/sealed`, detail: expect.stringContaining("all sealed or all open") }]);
    }
    expect((await logInfo()).tree_size).toBe(before);
    expectProblem(await api("/v1/attestations", { key: org.key, json: { ...item(true), sealed: "yes" } }), 422, "validation_failed");
  });
});
