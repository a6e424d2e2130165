// Test fixtures: real keys (node:crypto Ed25519), real signatures, real Merkle trees built with
// the independent reference implementation. Test-only: imports node:crypto.
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { leafData, signingMessage } from "../attestation";
import { formatCheckpointBody, formatSignedNote } from "../checkpoint";
import { bytesToBase64, bytesToHex, utf8Encode } from "../encoding";
import { jwkThumbprint } from "../keys";
import { SEALED_V1, SEALED_V2, type SealedType, sealedCreatedAt, sealedPayload } from "../sealed";
import { refMth, refPath, leafDataFor } from "./merkle-reference";

export interface TestKey {
  privateKey: KeyObject;
  publicKeyRaw: Uint8Array;
  publicKeyPem: string;
}

export function makeKey(): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const der = publicKey.export({ format: "der", type: "spki" });
  return {
    privateKey,
    publicKeyRaw: new Uint8Array(der.subarray(der.length - 32)),
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
  };
}

export function signBytes(key: TestKey, message: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, message, key.privateKey));
}

/** A checkpoint note signed by `key` with key name = origin. */
export function signCheckpoint(key: TestKey, origin: string, size: number, root: Uint8Array): string {
  const body = formatCheckpointBody(origin, size, root);
  return formatSignedNote(body, origin, key.publicKeyRaw, signBytes(key, utf8Encode(body)));
}

export const ORIGIN = "hallmark.test/log";
export const ISSUER_ID = "0190f5a0-0000-7000-8000-000000000001";

export interface BundleFixture {
  bundle: Record<string, any>;
  logKey: TestKey;
  issuerKey: TestKey;
}

export interface BundleOptions {
  treeSize?: number;
  index?: number;
  payload?: Record<string, unknown>;
  createdAt?: string;
  notBefore?: string;
  expiresAt?: string | null;
  logKey?: TestKey;
  issuerKey?: TestKey;
  /** Rewrites the signed attestation BEFORE it is logged (to forge validly-logged bad attestations). */
  beforeLogging?: (att: Record<string, any>) => Record<string, any>;
  /** Log the attestation sealed (lib/verify/sealed.ts) by this sealing key; the bundle carries the opening. */
  sealedBy?: TestKey;
  /** Signs the sealed leaf with this key instead (its kid and public key stay sealedBy's): a forged seal, logged. */
  sealSignedBy?: TestKey;
  /** The sealed leaf's version (default hallmark.sealed/v2: an id of its own, the attestation's second). */
  sealType?: SealedType;
}

export const SEALING_ISSUER_ID = "0190f5a0-0000-7000-8000-00000000005e";

/** A complete, valid proof bundle as the server returns it. */
export function makeBundle(opts: BundleOptions = {}): BundleFixture {
  const treeSize = opts.treeSize ?? 7;
  const index = opts.index ?? 4;
  const logKey = opts.logKey ?? makeKey();
  const issuerKey = opts.issuerKey ?? makeKey();
  const kid = jwkThumbprint(issuerKey.publicKeyRaw);
  const fields = {
    id: "0190f5a0-1111-7000-8000-00000000abcd",
    issuer_id: ISSUER_ID,
    kid,
    payload: opts.payload ?? { content_hash: "sha256:" + "ab".repeat(32), file_name: "photo.jpg", size: 123456 },
    created_at: opts.createdAt ?? "2025-03-04T05:06:07.089Z",
  };
  const signature = bytesToBase64(signBytes(issuerKey, signingMessage(fields)));
  const signed = (opts.beforeLogging ?? ((a) => a))({ ...fields, signature });
  const attestation = { ...signed, status: "active", log_index: index };
  const seal = opts.sealedBy ? sealOf(signed, opts.sealedBy, opts.sealSignedBy ?? opts.sealedBy, opts.sealType ?? SEALED_V2) : undefined;
  const logged = seal ? seal.leaf : signed;

  const leaves = Array.from({ length: treeSize }, (_, i) => (i === index ? leafData(logged as never) : leafDataFor(i)));
  const root = refMth(leaves);
  const checkpoint = signCheckpoint(logKey, ORIGIN, treeSize, root);
  const sigLine = checkpoint.trimEnd().split("\n").pop()!;
  const rootHex = bytesToHex(root);
  const bundle = {
    attestation,
    issuer: {
      id: ISSUER_ID,
      tenant_id: "0190f5a0-2222-7000-8000-000000000001",
      name: "Test Issuer",
      domain: "issuer.test",
      status: "active",
      trust_level: "verified",
      created_at: "2025-01-01T00:00:00.000Z",
      updated_at: "2025-01-01T00:00:00.000Z",
    },
    key: {
      kid,
      issuer_id: ISSUER_ID,
      algorithm: "Ed25519",
      public_key: issuerKey.publicKeyPem,
      status: "active",
      not_before: opts.notBefore ?? "2025-01-01T00:00:00.000Z",
      expires_at: opts.expiresAt === undefined ? "2026-01-01T00:00:00.000Z" : opts.expiresAt,
    },
    inclusion_proof: { log_index: index, tree_size: treeSize, root_hash: rootHex, hashes: refPath(index, leaves).map(bytesToHex) },
    signed_tree_head: {
      tree_size: treeSize,
      root_hash: rootHex,
      signature: sigLine.slice(sigLine.lastIndexOf(" ") + 1),
      origin: ORIGIN,
      timestamp: "2025-03-04T05:06:08.000Z",
      checkpoint,
    },
    ...(seal ? { seal } : {}),
  };
  return { bundle, logKey, issuerKey };
}

/** A v2 sealed leaf's id in the fixtures: a random-looking UUIDv4 of its own. */
export const SEALED_LEAF_ID = "6f1d2c3b-4a59-4e87-9b0c-1d2e3f405162";

/** The seal of `signed`: a sealed leaf of `type` signed by `key`, with a fixed salt, and the sealing issuer and key. */
function sealOf(signed: Record<string, any>, key: TestKey, signer: TestKey, type: SealedType) {
  const salt = new Uint8Array(32).map((_, i) => 255 - i);
  const kid = jwkThumbprint(key.publicKeyRaw);
  const v1 = type === SEALED_V1;
  const fields = {
    id: v1 ? signed.id : SEALED_LEAF_ID,
    issuer_id: SEALING_ISSUER_ID,
    kid,
    payload: sealedPayload(salt, signed as never, type),
    created_at: v1 ? signed.created_at : (sealedCreatedAt(signed.created_at) ?? signed.created_at),
  };
  return {
    leaf: { ...fields, signature: bytesToBase64(signBytes(signer, signingMessage(fields))) },
    salt: bytesToBase64(salt),
    issuer: { id: SEALING_ISSUER_ID, name: "Hallmark sealed entries", domain: "", status: "ACTIVE", trust_level: "BASIC" },
    key: {
      kid,
      issuer_id: SEALING_ISSUER_ID,
      algorithm: "Ed25519",
      public_key: key.publicKeyPem,
      status: "ACTIVE",
      not_before: "2025-01-01T00:00:00.000Z",
      expires_at: "2026-01-01T00:00:00.000Z",
    },
  };
}

export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
