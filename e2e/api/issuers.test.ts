// @hallmark-test db=sqlite,postgres lane=main
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parsePublicKeyPem, verifyProofBundle } from "@/lib/verify";
import { signingMessage } from "@/lib/verify/attestation";
import { base64ToBytes } from "@/lib/verify/encoding";
import { jwkThumbprint } from "@/lib/verify/keys";
import { api, attest, baseUrls, createIssuer, expectProblem, expectSameProblem, logKey, proofBundle } from "./helpers";
import { itWhere } from "./only-where";
import { seedOrg } from "../accounts";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const hasOpenssl = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

type Key = {
  kid: string;
  issuer_id: string;
  algorithm: string;
  public_key: string;
  status: string;
  not_before: string;
  expires_at: string;
};

describe("issuers", () => {
  let org: { tenantId: string; apiKey: string };
  let key: string;
  beforeAll(async () => {
    org = await seedOrg();
    key = org.apiKey;
  });

  it("creates a PENDING, BASIC issuer with one ACTIVE Ed25519 key whose kid is its RFC 7638 thumbprint", async () => {
    const res = await api("/v1/issuers", { key, json: { name: "  Daily News ", domain: "News.Example.ORG" } });
    expect(res.status, res.text).toBe(201);
    const issuer = res.body;
    expect(issuer).toMatchObject({
      tenant_id: org.tenantId,
      name: "Daily News",
      domain: "news.example.org",
      status: "PENDING",
      trust_level: "BASIC",
    });
    expect(issuer.id).toMatch(UUID);
    expect(issuer.created_at).toMatch(ISO);
    expect(issuer.updated_at).toMatch(ISO);
    expect(issuer.keys).toHaveLength(1);
    const k: Key = issuer.keys[0];
    expect(k).toMatchObject({ issuer_id: issuer.id, algorithm: "Ed25519", status: "ACTIVE" });
    expect(k.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
    expect(k.kid).toBe(jwkThumbprint(parsePublicKeyPem(k.public_key)));
    expect(k.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(k.expires_at)).toBeGreaterThan(Date.parse(k.not_before));
  });

  it("lists the tenant's issuers as {items, total} and reads one with its keys", async () => {
    const created = await createIssuer(key);
    const list = await api("/v1/issuers", { key });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body).sort()).toEqual(["items", "total"]);
    expect(list.body.total).toBe(list.body.items.length);
    const item = list.body.items.find((i: { id: string }) => i.id === created.id);
    expect(item).toMatchObject({ id: created.id, tenant_id: org.tenantId, status: "PENDING", trust_level: "BASIC" });
    expect(list.body.items.every((i: { tenant_id: string }) => i.tenant_id === org.tenantId)).toBe(true);

    const one = await api(`/v1/issuers/${created.id}`, { key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created);

    const otherList = await api("/v1/issuers", { key: (await seedOrg()).apiKey });
    expect(otherList.body).toEqual({ items: [], total: 0 });
  });

  it("rotates the signing key: new attestations use the new kid, old proofs still verify offline", async () => {
    const issuer = await createIssuer(key);
    const oldKid = issuer.keys[0]!.kid;
    const before = await attest(key, issuer.id);
    expect(before.kid).toBe(oldKid);

    const rotated = await api(`/v1/issuers/${issuer.id}/keys`, { key, method: "POST" });
    expect(rotated.status, rotated.text).toBe(201);
    const newKey: Key = rotated.body;
    expect(newKey).toMatchObject({ issuer_id: issuer.id, algorithm: "Ed25519", status: "ACTIVE" });
    expect(newKey.kid).not.toBe(oldKid);
    expect(newKey.kid).toBe(jwkThumbprint(parsePublicKeyPem(newKey.public_key)));

    const after = await attest(key, issuer.id);
    expect(after.kid).toBe(newKey.kid);

    const read = await api(`/v1/issuers/${issuer.id}`, { key });
    const byKid = Object.fromEntries((read.body.keys as Key[]).map((k) => [k.kid, k.status]));
    expect(byKid).toEqual({ [oldKid]: "RETIRED", [newKey.kid]: "ACTIVE" });

    const logPublicKey = await logKey();
    const oldBundle = await proofBundle(key, before.id);
    expect(oldBundle.key).toMatchObject({ kid: oldKid, status: "RETIRED" });
    const oldResult = verifyProofBundle(oldBundle, { logPublicKey });
    expect(oldResult.ok, JSON.stringify(oldResult)).toBe(true);
    const newResult = verifyProofBundle(await proofBundle(key, after.id), { logPublicKey });
    expect(newResult.ok, JSON.stringify(newResult)).toBe(true);
  });

  it("survives concurrent rotations of one issuer: every answer is 201 and exactly one key stays ACTIVE", async () => {
    const issuer = await createIssuer(key);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api(`/v1/issuers/${issuer.id}/keys`, { key, method: "POST", instance: i % baseUrls.length })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const keys: Key[] = (await api(`/v1/issuers/${issuer.id}`, { key })).body.keys;
    expect(keys).toHaveLength(9);
    expect(keys.filter((k) => k.status === "ACTIVE")).toHaveLength(1);
    const made = await attest(key, issuer.id);
    expect(made.kid).toBe(keys.find((k) => k.status === "ACTIVE")!.kid);
  });

  it("hides another tenant's issuer exactly like an unknown one, for reading, rotating and attesting", async () => {
    const mine = await createIssuer(key);
    const other = (await seedOrg()).apiKey;
    const unknownId = randomUUID();

    const theirs = await api(`/v1/issuers/${mine.id}`, { key: other });
    expectProblem(theirs, 404, "not_found");
    expectSameProblem(theirs, await api(`/v1/issuers/${unknownId}`, { key: other }));
    expectProblem(await api(`/v1/issuers/not-a-uuid`, { key }), 404, "not_found");

    const rotate = await api(`/v1/issuers/${mine.id}/keys`, { key: other, method: "POST" });
    expectProblem(rotate, 404, "not_found");
    expectSameProblem(rotate, await api(`/v1/issuers/${unknownId}/keys`, { key: other, method: "POST" }));
    expect((await api(`/v1/issuers/${mine.id}`, { key })).body.keys).toHaveLength(1);

    const payload = { content_hash: "b".repeat(64) };
    const signWithTheirs = await api("/v1/attestations", { key: other, json: { issuer_id: mine.id, payload } });
    expectProblem(signWithTheirs, 404, "not_found");
    const signWithUnknown = await api("/v1/attestations", { key: other, json: { issuer_id: unknownId, payload } });
    expectSameProblem(signWithTheirs, signWithUnknown);
  });

  itWhere(hasOpenssl, "needs the openssl command (apt-get install -y openssl)")(
    "signs attestations that plain `openssl pkeyutl -verify -rawin` accepts (DSSE PAE message, PEM key)",
    async () => {
      const issuer = await createIssuer(key);
      const made = await attest(key, issuer.id, { content_hash: "c".repeat(64), title: "Grüße ✓", n: [1, 2.5, { z: null }] });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hallmark-openssl-"));
      try {
        const pem = path.join(dir, "key.pem");
        const msg = path.join(dir, "msg.bin");
        const sig = path.join(dir, "sig.bin");
        fs.writeFileSync(pem, issuer.keys[0]!.public_key);
        fs.writeFileSync(sig, base64ToBytes(made.signature));
        const verify = () =>
          execFileSync("openssl", ["pkeyutl", "-verify", "-pubin", "-inkey", pem, "-rawin", "-in", msg, "-sigfile", sig], {
            encoding: "utf8",
            stdio: "pipe",
          });
        const fields = {
          id: made.id,
          issuer_id: issuer.id,
          kid: made.kid,
          payload: (made as { payload?: unknown }).payload,
          created_at: made.created_at,
        };
        fs.writeFileSync(msg, signingMessage(fields));
        expect(verify()).toMatch(/Signature Verified Successfully/);
        // The same check must reject a message that differs in one field.
        fs.writeFileSync(msg, signingMessage({ ...fields, created_at: new Date(Date.parse(made.created_at) + 1).toISOString() }));
        expect(verify).toThrow();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
