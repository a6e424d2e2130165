// @hallmark-test db=sqlite,postgres lane=main
// Payload types beginning with "hallmark." are Hallmark's own (a creator's protection is
// "hallmark.protection/v1"): an organisation cannot sign one, alone or in a batch, so nothing an
// organisation signs passes for a protection where a verifier or a pack looks at the type.
import { describe, expect, it } from "vitest";
import { api, expectProblem, logInfo, mint, orgWithIssuer, randomContentHash } from "./helpers";
import { seedConsumer } from "../accounts";

const RESERVED = ["hallmark.protection/v1", "Hallmark.Protection/v1", " hallmark.anything", "HALLMARK.x"];

describe("reserved payload types", () => {
  it("refuses an attestation whose payload type is Hallmark's, 422 reserved_payload_type at /payload/type, writing nothing", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const before = (await logInfo()).tree_size;
    for (const type of RESERVED) {
      const res = await api("/v1/attestations", {
        key,
        json: { issuer_id: issuerId, payload: { type, protection_id: crypto.randomUUID(), content_hash: `sha256:${randomContentHash()}` } },
      });
      expectProblem(res, 422, "reserved_payload_type");
      expect(res.body.errors).toEqual([{ pointer: "/payload/type", detail: expect.stringContaining('"hallmark."') }]);
    }
    expect((await logInfo()).tree_size).toBe(before);
    // Types of its own, even ones that mention Hallmark elsewhere, are signed as before.
    for (const type of ["org.example.article/v1", "hallmarks/v1", "org.example.hallmark.protection/v1", 42]) {
      const res = await api("/v1/attestations", {
        key,
        json: { issuer_id: issuerId, payload: { type, content_hash: randomContentHash() } },
      });
      expect(res.status, res.text).toBe(201);
    }
  });

  it("refuses a batch with any such item whole, a pointer per item, writing nothing", async () => {
    const { key, issuerId } = await orgWithIssuer();
    const before = (await logInfo()).tree_size;
    const item = (type: string) => ({ issuer_id: issuerId, payload: { type, content_hash: randomContentHash() } });
    const res = await api("/v1/attestations/batch", {
      key,
      json: { items: [item("org.example/v1"), item("hallmark.protection/v1"), item("org.example/v1"), item("Hallmark.x")] },
    });
    expectProblem(res, 422, "reserved_payload_type");
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/items/1/payload/type", "/items/3/payload/type"]);
    expect((await logInfo()).tree_size).toBe(before);
  });

  it("leaves what Hallmark itself signs alone: a mint is a hallmark.protection/v1 attestation", async () => {
    const creator = await seedConsumer();
    const m = await mint(creator.apiKey, { content_hash: randomContentHash(), title: "Reserved" });
    expect(m.status, m.text).toBe(201);
    const attestation = await api(`/v1/attestations/${m.body.attestation_id}`, { key: creator.apiKey });
    expect(attestation.status, attestation.text).toBe(200);
    expect(attestation.body.payload.type).toBe("hallmark.protection/v1");
  });
});
