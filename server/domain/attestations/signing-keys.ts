import "server-only";
import { LRUCache } from "lru-cache";
import { processWide } from "../../process-wide";
import type crypto from "node:crypto";
import { jwkThumbprint, publicKeyToPem } from "@/lib/verify/keys";
import { getDb, type Tx } from "../../db";
import { generateEd25519, openPrivateKey, sealPrivateKey } from "../../crypto/key-custody";
import { iso } from "../ids";

/** A signing key lives this long unless rotated sooner; an expired one is rotated on use. */
export const KEY_LIFETIME_MS = 365 * 24 * 3600 * 1000;
/**
 * After a rotation the old key keeps signing for at most this long: requests that read it
 * just before the rotation (or an instance whose signer cache is a few seconds old) still
 * produce attestations inside its validity window.
 */
export const ROTATION_OVERLAP_MS = 5 * 60 * 1000;

export interface SigningKeyView {
  kid: string;
  issuer_id: string;
  algorithm: "Ed25519";
  public_key: string;
  status: "ACTIVE" | "RETIRED";
  not_before: string;
  expires_at: string;
}

type KeyRow = {
  kid: string;
  issuerId: string;
  publicKeyPem: string;
  status: string;
  notBefore: Date;
  expiresAt: Date;
};

export function toKeyView(row: KeyRow): SigningKeyView {
  return {
    kid: row.kid,
    issuer_id: row.issuerId,
    algorithm: "Ed25519",
    public_key: row.publicKeyPem,
    status: row.status === "ACTIVE" ? "ACTIVE" : "RETIRED",
    not_before: iso(row.notBefore),
    expires_at: iso(row.expiresAt),
  };
}

/**
 * Creates a new ACTIVE key for the issuer inside `tx`, valid from the start of the current
 * second: a sealed leaf is dated to its attestation's second (lib/verify/sealed.ts), which is
 * then never before its sealing key's not_before.
 */
export async function insertSigningKey(tx: Tx, issuerId: string, now: Date) {
  const pair = generateEd25519();
  const kid = jwkThumbprint(pair.publicRaw);
  return tx.signingKey.create({
    data: {
      kid,
      issuerId,
      algorithm: "Ed25519",
      publicKeyPem: publicKeyToPem(pair.publicRaw),
      privateKeyEnc: sealPrivateKey(pair.privateKey, kid),
      status: "ACTIVE",
      notBefore: new Date(Math.floor(now.getTime() / 1000) * 1000),
      expiresAt: new Date(now.getTime() + KEY_LIFETIME_MS),
      createdAt: now,
    },
  });
}

/**
 * Retires the issuer's active key and makes a new one sign from now on. The caller holds the
 * issuer row's lock (it has written that row in `tx`), so rotations of one issuer run one
 * after another on every instance; the compare-and-swap on the old key's status is a guard.
 */
export async function rotateSigningKey(tx: Tx, issuerId: string) {
  const now = new Date();
  const current = await tx.signingKey.findFirst({ where: { issuerId, status: "ACTIVE" } });
  if (current) {
    const overlapEnd = new Date(Math.min(current.expiresAt.getTime(), now.getTime() + ROTATION_OVERLAP_MS));
    const swapped = await tx.signingKey.updateMany({
      where: { kid: current.kid, status: "ACTIVE" },
      data: { status: "RETIRED", expiresAt: overlapEnd },
    });
    if (swapped.count !== 1) throw new Error("concurrent rotation; retry");
  }
  return insertSigningKey(tx, issuerId, now);
}

export interface Signer {
  kid: string;
  privateKey: crypto.KeyObject;
  notBefore: number;
  expiresAt: number;
}

const SIGNER_TTL_MS = 5_000;
const signers = processWide("signer-cache", () => new LRUCache<string, Signer>({ max: 10_000, ttl: SIGNER_TTL_MS }));

/** Signers kept, for /metrics. */
export const signerCacheEntries = () => signers.size;

/** Forget cached signers (after a rotation in this process). */
export function forgetSigner(issuerId: string): void {
  signers.delete(issuerId);
}

/**
 * The key that signs for the issuer now, cached for a few seconds (well inside the rotation
 * overlap). An expired key is rotated on the spot.
 */
export async function getSigner(issuerId: string): Promise<Signer> {
  const now = Date.now();
  const hit = signers.get(issuerId);
  if (hit && hit.expiresAt > now) return hit;
  let row = await getDb().read.signingKey.findFirst({ where: { issuerId, status: "ACTIVE" } });
  if (!row || row.expiresAt.getTime() <= now) {
    row = await getDb().write(async (tx) => {
      await tx.issuer.update({ where: { id: issuerId }, data: { updatedAt: new Date() } }); // the issuer lock
      const current = await tx.signingKey.findFirst({ where: { issuerId, status: "ACTIVE" } });
      // A request before us (on any instance) may have rotated already.
      if (current && current.expiresAt.getTime() > Date.now()) return current;
      return rotateSigningKey(tx, issuerId);
    });
  }
  const signer: Signer = {
    kid: row.kid,
    privateKey: openPrivateKey(row.privateKeyEnc, row.kid),
    notBefore: row.notBefore.getTime(),
    expiresAt: row.expiresAt.getTime(),
  };
  signers.set(issuerId, signer);
  return signer;
}
