// When an attestation is dated (attestationTime): never before its key's not_before, and, when
// it is to be sealed, never before its sealing key's first whole second, since its sealed leaf is
// dated to its second (lib/verify/sealed.ts) and must be within the sealing key's validity.
import { afterEach, describe, expect, it, vi } from "vitest";
import { sealedCreatedAt } from "@/lib/verify/sealed";
import { attestationTime } from "./attestations";
import type { Signer } from "./signing-keys";

const NOW = Date.parse("2026-11-28T10:42:05.250Z");
const key = (notBefore: number, expiresAt = NOW + 3_600_000): Signer => ({ kid: "k", privateKey: null as never, notBefore, expiresAt });
const codeOf = (f: () => unknown) => {
  try {
    f();
    return "ok";
  } catch (e) {
    return (e as { code?: string }).code;
  }
};

describe("attestationTime", () => {
  afterEach(() => vi.useRealTimers());

  it("is now for keys valid since before now, sealed or not", () => {
    vi.useFakeTimers({ now: NOW });
    expect(attestationTime(key(NOW - 60_000)).getTime()).toBe(NOW);
    expect(attestationTime(key(NOW - 60_000), key(NOW - 60_000)).getTime()).toBe(NOW);
  });

  it("waits for the issuer key's not_before, to the millisecond", () => {
    vi.useFakeTimers({ now: NOW });
    expect(attestationTime(key(NOW + 7)).getTime()).toBe(NOW + 7);
  });

  it("dates a sealed one at a sealing key's first whole second, so its sealed leaf's second is within that key's validity", () => {
    vi.useFakeTimers({ now: NOW });
    // A sealing key made before keys began on whole seconds: valid from 10:42:05.100, now is .250.
    const sealing = key(NOW - 150);
    const at = attestationTime(key(NOW - 60_000), sealing);
    expect(at.toISOString()).toBe("2026-11-28T10:42:06.000Z");
    expect(Date.parse(sealedCreatedAt(at.toISOString())!)).toBeGreaterThanOrEqual(sealing.notBefore);
    // A sealing key valid from a whole second: nothing to wait for.
    expect(attestationTime(key(NOW - 60_000), key(Date.parse("2026-11-28T10:42:05.000Z"))).getTime()).toBe(NOW);
    // Not sealed: the sealing key plays no part.
    expect(attestationTime(key(NOW - 60_000)).getTime()).toBe(NOW);
  });

  it("answers 503 while either key is past its expiry", () => {
    vi.useFakeTimers({ now: NOW });
    expect(codeOf(() => attestationTime(key(NOW - 60_000, NOW - 1)))).toBe("service_unavailable");
    expect(codeOf(() => attestationTime(key(NOW - 60_000), key(NOW - 150, NOW + 500)))).toBe("service_unavailable");
  });
});
