// @hallmark-test db=postgres lane=main
// Several app instances on one PostgreSQL database behave as one service.
import { beforeAll, describe, expect } from "vitest";
import { parsePublicKeyPem, verifyCheckpoint, verifyConsistencyProof, verifyProofBundle } from "@/lib/verify";
import { api, baseUrls, createIssuer, logInfo, proofBundle } from "./helpers";
import { itWhere } from "./only-where";
import { seedOrg } from "../accounts";

const multi = baseUrls.length > 1;
const its = itWhere(multi, "needs two app instances, which the PostgreSQL run has");

async function attestOn(instance: number, key: string, issuerId: string, n: number) {
  const res = await api("/v1/attestations", { key, instance, json: { issuer_id: issuerId, payload: { n, instance } } });
  expect(res.status, res.text).toBe(201);
  return { ...(res.body as { id: string; log_index: number }), instance };
}

describe("instances", () => {
  let key: string;
  let issuerId: string;
  beforeAll(async () => {
    if (!multi) return;
    key = (await seedOrg()).apiKey;
    issuerId = (await createIssuer(key)).id;
  });

  its("gives 60 concurrent attestations across instances distinct log indexes and verifiable proofs", async () => {
    const start = await logInfo(0);
    const made = await Promise.all(Array.from({ length: 60 }, (_, i) => attestOn(i % baseUrls.length, key, issuerId, i)));
    const indexes = made.map((a) => a.log_index).sort((a, b) => a - b);
    expect(new Set(indexes).size).toBe(60);
    expect(indexes[0]).toBeGreaterThanOrEqual(start.tree_size);
    const end = await logInfo(1);
    expect(end.tree_size).toBe(start.tree_size + 60);
    expect(indexes).toEqual(Array.from({ length: 60 }, (_, i) => start.tree_size + i));

    for (const a of made) {
      const other = (a.instance + 1) % baseUrls.length;
      const bundle = await proofBundle(key, a.id, other);
      expect(bundle.attestation.log_index).toBe(a.log_index);
      const result = verifyProofBundle(bundle, { logPublicKey: end.verifier_key });
      expect(result.ok, JSON.stringify(result)).toBe(true);
    }
  });

  its("serves on each instance what was created on the other", async () => {
    for (const instance of [0, 1]) {
      const a = await attestOn(instance, key, issuerId, -1);
      const other = 1 - instance;
      const here = await api(`/v1/attestations/${a.id}`, { key, instance });
      const there = await api(`/v1/attestations/${a.id}`, { key, instance: other });
      expect(there.status).toBe(200);
      expect(there.body).toEqual(here.body);
      expect(verifyProofBundle(await proofBundle(key, a.id, other), { logPublicKey: (await logInfo(other)).public_key }).ok).toBe(true);
    }
  });

  its("publishes one log: same key and identity on every instance, checkpoints consistent across them", async () => {
    const [a, b] = [await logInfo(0), await logInfo(1)];
    // Each instance here has a base URL of its own (its own port), which the shards' URLs carry.
    const identity = (x: typeof a) => ({
      ...x,
      tree_size: 0,
      root_hash: "",
      witnessing: null,
      shards: x.shards.map((s) => ({ ...s, tree_size: 0, monitoring_prefix: "" })),
    });
    expect(identity(a)).toEqual(identity(b));
    const first = a.tree_size;
    await attestOn(1, key, issuerId, -2);
    const second = (await logInfo(1)).tree_size;
    const res = await api(`/v1/log/consistency?first=${first}&second=${second}`, { instance: 0 });
    expect(res.status, res.text).toBe(200);
    const v = verifyConsistencyProof(
      { first: res.body.first.checkpoint, second: res.body.second.checkpoint, proof: res.body.hashes },
      { logPublicKey: a.verifier_key },
    );
    expect(v.ok, JSON.stringify(v)).toBe(true);
    // Each instance serves the published checkpoint it last read: both verify, and are consistent.
    const notes = [(await api("/v1/log/checkpoint", { instance: 0 })).text, (await api("/v1/log/checkpoint", { instance: 1 })).text];
    const sizes = notes.map((n) => verifyCheckpoint(n, { publicKey: parsePublicKeyPem(a.public_key) }).treeSize).sort((x, y) => x - y);
    const between = await api(`/v1/log/consistency?first=${sizes[0]}&second=${sizes[1]}`, { instance: 1 });
    expect(between.status, between.text).toBe(200);
    expect(
      verifyConsistencyProof(
        { first: between.body.first.checkpoint, second: between.body.second.checkpoint, proof: between.body.hashes },
        { logPublicKey: a.verifier_key },
      ).ok,
    ).toBe(true);
  });

  its("lets a key created on one instance work on the other, and keys rotated on one sign on the other within seconds", async () => {
    const made = await api("/v1/api-keys", { key, instance: 1, json: { name: "from 1", scopes: ["issuers:read"] } });
    expect(made.status).toBe(201);
    expect((await api("/v1/issuers", { key: made.body.key, instance: 0 })).status).toBe(200);

    const issuer = await createIssuer(key);
    await attestOn(1, key, issuer.id, 0); // warms instance 1's signer cache with the old key
    const rotated = await api(`/v1/issuers/${issuer.id}/keys`, { key, method: "POST", instance: 0 });
    expect(rotated.status).toBe(201);
    const deadline = Date.now() + 15_000;
    let kid = "";
    while (Date.now() < deadline && kid !== rotated.body.kid) {
      const a = await api("/v1/attestations", { key, instance: 1, json: { issuer_id: issuer.id, payload: { t: Date.now() } } });
      expect(a.status).toBe(201);
      kid = a.body.kid;
      const bundle = await proofBundle(key, a.body.id, 0);
      expect(verifyProofBundle(bundle, { logPublicKey: (await logInfo()).public_key }).ok).toBe(true);
      if (kid !== rotated.body.kid) await new Promise((r) => setTimeout(r, 500));
    }
    expect(kid).toBe(rotated.body.kid);
  });
});
