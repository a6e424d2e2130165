import { describe, expect, it } from "vitest";
import { ZAttestation } from "./attestations";
import { ZContentHashInput, ZId, ZJsonObject, ZProblem } from "./common";
import { ZProtectionRecord } from "./protections";

describe("shared schemas", () => {
  it("passes a JSON object through as the same object, a __proto__ member included", () => {
    const sent = JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as Record<string, unknown>;
    const parsed = ZJsonObject().parse(sent);
    expect(parsed).toBe(sent);
    expect(Object.keys(parsed)).toEqual(["__proto__", "a"]);
    for (const bad of [null, [], "x", 1]) expect(ZJsonObject().safeParse(bad).success).toBe(false);
  });

  it("reads any id as a UUID or the nil UUID, and a content hash in either case and with its prefix", () => {
    expect(ZId.parse("0190d5c8-7e3a-7b1c-9f2e-3a4b5c6d7e8f")).toBe("0190d5c8-7e3a-7b1c-9f2e-3a4b5c6d7e8f");
    expect(ZId.parse("../etc/passwd")).toBe("00000000-0000-0000-0000-000000000000");
    const hex = "AB".repeat(32);
    expect(ZContentHashInput.parse(`sha256:${hex}`)).toBe(hex.toLowerCase());
    expect(ZContentHashInput.safeParse("ab".repeat(31)).success).toBe(false);
  });

  it("describes the answers as the server sends them, and refuses what differs", () => {
    const attestation = {
      id: "0190d5c8-7e3a-7b1c-9f2e-3a4b5c6d7e8f",
      issuer_id: "0190d5c8-7e3a-7b1c-9f2e-3a4b5c6d7e90",
      kid: "k".repeat(43),
      status: "VALID",
      payload: { a: 1 },
      signature: "s",
      log_index: 0,
      created_at: new Date().toISOString(),
    };
    expect(ZAttestation.parse(attestation)).toEqual(attestation);
    const { log_index: _, ...missing } = attestation;
    expect(ZAttestation.safeParse(missing).success).toBe(false);
    expect(ZAttestation.safeParse({ ...attestation, status: "REVOKED" }).success).toBe(false);
    expect(ZAttestation.safeParse({ ...attestation, created_at: "yesterday" }).success).toBe(false);
    expect(ZProtectionRecord.safeParse({ status: "protected" }).success).toBe(false);
    expect(
      ZProblem.parse({
        type: "urn:hallmark:problem:not_found",
        title: "Not found",
        status: 404,
        detail: "x",
        code: "not_found",
        request_id: "r",
      }).code,
    ).toBe("not_found");
    expect(ZProblem.safeParse({ type: "t", title: "t", status: 404, detail: "x", code: "no_such_code", request_id: "r" }).success).toBe(
      false,
    );
    expect(ZProblem.safeParse({ type: "t", title: "t", status: 404, detail: "x", code: "not_found" }).success).toBe(false);
  });
});
