// @hallmark-test db=sqlite,postgres lane=main
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { verifyProofBundle } from "@/lib/verify";
import { api, attest, expectProblem, expectSameProblem, logKey, orgWithIssuer } from "./helpers";
import { seedOrg } from "../accounts";

describe("attestations", () => {
  let key: string;
  let issuerId: string;
  beforeAll(async () => {
    ({ key, issuerId } = await orgWithIssuer());
  });

  it("creates a signed, logged attestation whose proof bundle verifies offline", async () => {
    const payload = { content_hash: "a".repeat(64), title: "Ünïcode ✓", nested: { n: 1.5, list: [3, 2, 1] } };
    const created = await api("/v1/attestations", { key, json: { issuer_id: issuerId, payload } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ issuer_id: issuerId, status: "VALID", payload });
    expect(Number.isInteger(created.body.log_index)).toBe(true);

    const fetched = await api(`/v1/attestations/${created.body.id}`, { key });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);

    const bundle = await api(`/v1/attestations/${created.body.id}/proof-bundle`, { key });
    expect(bundle.status).toBe(200);
    // `timestamp` joins them once a TSA (HALLMARK_TSA_URL) has stamped a checkpoint holding the entry.
    expect(
      Object.keys(bundle.body)
        .filter((k) => k !== "timestamp")
        .sort(),
    ).toEqual(["attestation", "inclusion_proof", "issuer", "key", "signed_tree_head"]);
    const result = verifyProofBundle(bundle.body, { logPublicKey: await logKey() });
    expect(result.ok, JSON.stringify(result)).toBe(true);
  });

  it("bounds the log entry to 65,535 bytes: a payload of 65,233 canonical bytes is logged, one more is 422 and writes nothing", async () => {
    // {"b":"…"} is 8 bytes around its string; the leaf adds 302 bytes of fixed-length fields.
    const payload = (size: number) => ({ b: "x".repeat(size - 8) });
    const largest = await api("/v1/attestations", { key, json: { issuer_id: issuerId, payload: payload(65_233) } });
    expect(largest.status, largest.text.slice(0, 300)).toBe(201);
    const bundle = await api(`/v1/attestations/${largest.body.id}/proof-bundle`, { key });
    expect(verifyProofBundle(bundle.body, { logPublicKey: await logKey() }).ok).toBe(true);
    const before = (await api("/v1/log")).body.tree_size;
    const over = await api("/v1/attestations", { key, json: { issuer_id: issuerId, payload: payload(65_234) } });
    expectProblem(over, 422, "validation_failed");
    expect(over.body.errors).toEqual([{ pointer: "/payload", detail: expect.stringContaining("at most 65233") }]);
    expect((await api("/v1/log")).body.tree_size).toBe(before);
  });

  it("assigns distinct, contiguous log indexes under concurrent creation", async () => {
    const made = await Promise.all(Array.from({ length: 40 }, () => attest(key, issuerId)));
    const indexes = made.map((a) => a.log_index).sort((a, b) => a - b);
    expect(new Set(indexes).size).toBe(40);
    for (const a of made) {
      const bundle = await api(`/v1/attestations/${a.id}/proof-bundle`, { key });
      expect(verifyProofBundle(bundle.body, { logPublicKey: await logKey() }).ok).toBe(true);
    }
  });

  it("answers another tenant's attestation exactly like an unknown one", async () => {
    const mine = await attest(key, issuerId);
    const other = (await seedOrg()).apiKey;
    const theirs = await api(`/v1/attestations/${mine.id}`, { key: other });
    const unknown = await api(`/v1/attestations/${randomUUID()}`, { key: other });
    expectProblem(theirs, 404, "not_found");
    expectSameProblem(theirs, unknown);
    expectProblem(await api(`/v1/attestations/${mine.id}/proof-bundle`, { key: other }), 404, "not_found");
    expectProblem(await api(`/v1/attestations/not-a-uuid`, { key }), 404, "not_found");
  });
});
