import { describe, expect, it } from "vitest";
import { CompactRange } from "./compact-range";
import { bytesToHex } from "./encoding";
import { leafHash } from "./merkle";
import { refMth } from "./testing/merkle-reference";

describe("compact range", () => {
  it("has the root of the RFC's MTH after every append", () => {
    const leaves: Uint8Array[] = [];
    const range = new CompactRange();
    expect(bytesToHex(range.root())).toBe(bytesToHex(refMth([])));
    for (let i = 0; i < 70; i++) {
      leaves.push(new TextEncoder().encode(`leaf ${i}`));
      range.append(leafHash(leaves[i]!));
      expect(bytesToHex(range.root())).toBe(bytesToHex(refMth(leaves)));
      expect(range.subtrees.length).toBe([...(i + 1).toString(2)].filter((b) => b === "1").length);
    }
  });
});
