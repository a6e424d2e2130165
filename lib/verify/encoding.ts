// Byte/text encodings used by the Hallmark formats. Isomorphic: no Buffer, no node: imports.
//
// Decoders are strict on purpose: every byte string has exactly one accepted encoding, so a
// verifier can never be fooled into accepting a modified text that decodes to the same bytes
// (e.g. base64 with non-zero padding bits, whitespace, or missing padding).

const HEX_DIGITS = "0123456789abcdef";
const B64_STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Thrown by the strict decoders on input that is not a canonical encoding. */
export class EncodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EncodingError";
  }
}

/** Lowercase hex. */
export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += HEX_DIGITS[b >> 4]! + HEX_DIGITS[b & 15]!;
  return out;
}

/** Strict lowercase hex (even length, [0-9a-f] only). */
export function hexToBytes(hex: string): Uint8Array {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(hex)) {
    throw new EncodingError("invalid hex: expected an even number of lowercase hex digits");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function encode64(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + (pad ? "==" : "");
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + (pad ? "=" : "");
  }
  return out;
}

function decode64(text: string, alphabet: string, padded: boolean): Uint8Array {
  if (typeof text !== "string") throw new EncodingError("invalid base64: not a string");
  let body = text;
  if (padded) {
    if (text.length % 4 !== 0) throw new EncodingError("invalid base64: length is not a multiple of 4");
    const padLen = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
    body = text.slice(0, text.length - padLen);
  } else if (text.length % 4 === 1) {
    throw new EncodingError("invalid base64url: impossible length");
  }
  const rem = body.length % 4;
  const values = new Uint8Array(body.length);
  for (let i = 0; i < body.length; i++) {
    const v = alphabet.indexOf(body[i]!);
    if (v < 0) throw new EncodingError("invalid base64: unexpected character");
    values[i] = v;
  }
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let o = 0;
  let i = 0;
  for (; i + 3 < body.length; i += 4) {
    const n = (values[i]! << 18) | (values[i + 1]! << 12) | (values[i + 2]! << 6) | values[i + 3]!;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  if (rem === 2) {
    if ((values[i + 1]! & 15) !== 0) throw new EncodingError("invalid base64: non-zero padding bits");
    out[o++] = (values[i]! << 2) | (values[i + 1]! >> 4);
  } else if (rem === 3) {
    if ((values[i + 2]! & 3) !== 0) throw new EncodingError("invalid base64: non-zero padding bits");
    const n = (values[i]! << 18) | (values[i + 1]! << 12) | (values[i + 2]! << 6);
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
  } else if (rem === 1) {
    throw new EncodingError("invalid base64: impossible length");
  }
  return out;
}

/** RFC 4648 §4 base64 with padding. */
export function bytesToBase64(bytes: Uint8Array): string {
  return encode64(bytes, B64_STD, true);
}

/** Strict RFC 4648 §4 base64: padding required, no whitespace, canonical trailing bits. */
export function base64ToBytes(text: string): Uint8Array {
  return decode64(text, B64_STD, true);
}

/** RFC 4648 §5 base64url without padding (as used by JWK and RFC 7638 thumbprints). */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return encode64(bytes, B64_URL, false);
}

/** Strict base64url without padding, canonical trailing bits. */
export function base64UrlToBytes(text: string): Uint8Array {
  return decode64(text, B64_URL, false);
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** UTF-8 encoding. Lone surrogates are rejected rather than silently replaced. */
export function utf8Encode(text: string): Uint8Array {
  if (hasLoneSurrogate(text)) throw new EncodingError("invalid string: lone surrogate");
  return textEncoder.encode(text);
}

/** Strict UTF-8 decoding (throws on malformed input). */
export function utf8Decode(bytes: Uint8Array): string {
  try {
    return textDecoder.decode(bytes);
  } catch {
    throw new EncodingError("invalid UTF-8");
  }
}

export function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return true;
    }
  }
  return false;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** Byte equality. Not constant-time: only ever used on public values (hashes, key IDs). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
