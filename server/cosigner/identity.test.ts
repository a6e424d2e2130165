// The time a cosignature line states, as add-checkpoint reads it back from the lines it stored.
import { describe, expect, it } from "vitest";
import { cosignatureBase64 } from "@/lib/verify/cosignature";
import { cosignedAt } from "./identity";

describe("cosignedAt", () => {
  it("reads the big-endian timestamp after the key ID of the first line", () => {
    const line = (t: number) =>
      `\u2014 witness.example/w ${cosignatureBase64(new Uint8Array([1, 2, 3, 4]), t, new Uint8Array(64).fill(7))}\n`;
    expect(cosignedAt(line(1_795_955_491) + line(5))).toBe(1_795_955_491);
    expect(cosignedAt("")).toBe(0);
  });
});
