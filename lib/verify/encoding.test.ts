import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  base64ToBytes,
  base64UrlToBytes,
  bytesToBase64,
  bytesToBase64Url,
  bytesToHex,
  hexToBytes,
  utf8Decode,
  utf8Encode,
} from "./encoding";

const ascii = (s: string) => new TextEncoder().encode(s);

describe("base64 (RFC 4648)", () => {
  // RFC 4648 §10 test vectors.
  const vectors: [string, string, string][] = [
    ["", "", ""],
    ["f", "Zg==", "Zg"],
    ["fo", "Zm8=", "Zm8"],
    ["foo", "Zm9v", "Zm9v"],
    ["foob", "Zm9vYg==", "Zm9vYg"],
    ["fooba", "Zm9vYmE=", "Zm9vYmE"],
    ["foobar", "Zm9vYmFy", "Zm9vYmFy"],
  ];
  it.each(vectors)("encodes and decodes %j", (plain, b64, b64url) => {
    expect(bytesToBase64(ascii(plain))).toBe(b64);
    expect(base64ToBytes(b64)).toEqual(ascii(plain));
    expect(bytesToBase64Url(ascii(plain))).toBe(b64url);
    expect(base64UrlToBytes(b64url)).toEqual(ascii(plain));
  });

  it("uses the distinct alphabets of RFC 4648 §4 and §5", () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xbf]);
    expect(bytesToBase64(bytes)).toBe("+/+/");
    expect(bytesToBase64Url(bytes)).toBe("-_-_");
    expect(() => base64ToBytes("-_-_")).toThrow();
    expect(() => base64UrlToBytes("+/+/")).toThrow();
  });

  it.each(["Zg", "Zg=", "Zg===", "Z===", "====", "Zm9v\n", " Zm9v", "Zm 9v", "Zm9v=", "Zh==", "Zm9=", "Zg=A", "Zm8*", "=Zm8"])(
    "rejects non-canonical base64 %j",
    (bad) => expect(() => base64ToBytes(bad)).toThrow(),
  );

  it.each(["Zg==", "Zh", "Zm9", "Z", "Zm9v!"])("rejects bad base64url %j", (bad) => expect(() => base64UrlToBytes(bad)).toThrow());

  it("round-trips and matches Buffer for arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const b64 = bytesToBase64(bytes);
        expect(b64).toBe(Buffer.from(bytes).toString("base64"));
        expect(base64ToBytes(b64)).toEqual(bytes);
        const url = bytesToBase64Url(bytes);
        expect(url).toBe(Buffer.from(bytes).toString("base64url"));
        expect(base64UrlToBytes(url)).toEqual(bytes);
      }),
    );
  });
});

describe("hex", () => {
  it("round-trips lowercase and matches Buffer", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const hex = bytesToHex(bytes);
        expect(hex).toBe(Buffer.from(bytes).toString("hex"));
        expect(hexToBytes(hex)).toEqual(bytes);
      }),
    );
  });
  it.each(["0", "abc", "AB", "0g", " 00", "00 "])("rejects %j", (bad) => expect(() => hexToBytes(bad)).toThrow());
});

describe("utf8", () => {
  it("encodes non-ASCII and rejects malformed input", () => {
    expect(bytesToHex(utf8Encode("\u2014€😀"))).toBe("e28094e282acf09f9880");
    expect(utf8Decode(hexToBytes("e28094"))).toBe("\u2014");
    expect(() => utf8Decode(new Uint8Array([0xff]))).toThrow();
    expect(() => utf8Decode(new Uint8Array([0xe2, 0x80]))).toThrow();
    expect(() => utf8Encode("\ud800")).toThrow();
  });
});
