// Test witnesses: Ed25519 (node:crypto) and ML-DSA-44 (@noble/post-quantum) cosigners whose
// signatures are made from tlog-cosignature's message definitions, independently of
// lib/verify/cosignature.ts. Test-only: imports node:crypto.
import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { ml_dsa44 } from "@noble/post-quantum/ml-dsa.js";

const b64 = (b: Uint8Array | Buffer) => Buffer.from(b).toString("base64");
const rawPub = (k: KeyObject) => new Uint8Array(k.export({ format: "der", type: "spki" }).subarray(-32));
export const keyId = (name: string, type: number, pub: Uint8Array) =>
  createHash("sha256")
    .update(name)
    .update(Buffer.from([0x0a, type]))
    .update(pub)
    .digest()
    .subarray(0, 4);
const vkeyOf = (name: string, type: number, pub: Uint8Array) =>
  `${name}+${keyId(name, type, pub).toString("hex")}+${b64(Buffer.concat([Buffer.from([type]), pub]))}`;
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};

export function edWitness(name: string) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const pub = rawPub(publicKey);
  return {
    name,
    vkey: vkeyOf(name, 0x04, pub),
    cosign(body: string, t: number) {
      const sig = sign(null, Buffer.from(`cosignature/v1\ntime ${t}\n${body}`), privateKey);
      return `— ${name} ${b64(Buffer.concat([keyId(name, 0x04, pub), u64(t), sig]))}\n`;
    },
  };
}

export function mldsaWitness(name: string) {
  const keys = ml_dsa44.keygen(new Uint8Array(32).fill(name.length));
  return {
    name,
    vkey: vkeyOf(name, 0x06, keys.publicKey),
    cosign(body: string, t: number) {
      const [origin, size, root] = body.split("\n");
      const msg = Buffer.concat([
        Buffer.from("subtree/v1\n\0"),
        Buffer.from([Buffer.byteLength(name)]),
        Buffer.from(name),
        u64(t),
        Buffer.from([Buffer.byteLength(origin!)]),
        Buffer.from(origin!),
        u64(0),
        u64(Number(size)),
        Buffer.from(root!, "base64"),
      ]);
      return `— ${name} ${b64(Buffer.concat([keyId(name, 0x06, keys.publicKey), u64(t), ml_dsa44.sign(msg, keys.secretKey)]))}\n`;
    },
  };
}
