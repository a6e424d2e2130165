import "server-only";
import { getDb } from "../../db";
import { signEd25519 } from "../../crypto/key-custody";
import { leafHashNode } from "../../crypto/hash";
import { leafDataOf, signingMessageOf, type CanonicalAttestation } from "../../crypto/attestation-bytes.mjs";
import { newSalt, newSealedLeafId, type SealColumn, type SealFields, sealedFields } from "../../crypto/sealed-leaf";
import type { LogEntry } from "../../log/log-append";
import { processWide } from "../../process-wide";
import { newId } from "../ids";
import { insertIssuerWithKey } from "./issuers";
import { getSigner, type Signer } from "./signing-keys";

/**
 * The sealing issuer signs every sealed leaf of the log, whoever owns the attestation inside:
 * one issuer and key for all owners, so a sealed leaf shares nothing with its owner's public
 * entries or with the owner's other sealed entries (lib/verify/sealed.ts). Its signature says
 * "this log holds this commitment since created_at"; who attested what is the owner's own
 * signature on the attestation the commitment binds, which the opening shows.
 */
export const SEALING_ISSUER_NAME = "Hallmark sealed entries";

const known = processWide("sealing-issuer", () => ({ id: null as string | null }));

/** Thrown inside the creating transaction when another process made the issuer first: it rolls back ours. */
class MadeElsewhere extends Error {}

/**
 * The log's sealing issuer (log.seal_issuer_id), made with its key, in a tenant of its own, on
 * the first sealed entry. Racing first calls (on any instance) each make one in a transaction
 * that sets the log's column only while it is null; the losers roll back and read the winner's.
 */
export async function sealingIssuerId(): Promise<string> {
  if (known.id) return known.id;
  const db = getDb();
  const read = async () => (await db.read.log.findUnique({ where: { id: 1 }, select: { sealIssuerId: true } }))?.sealIssuerId ?? null;
  let id = await read();
  if (!id) {
    try {
      id = await db.write(async (tx) => {
        const now = new Date();
        const tenant = await tx.tenant.create({
          data: { id: newId(), kind: "SYSTEM", name: SEALING_ISSUER_NAME, createdAt: now, updatedAt: now },
        });
        const { issuer } = await insertIssuerWithKey(tx, { tenantId: tenant.id, name: SEALING_ISSUER_NAME, domain: "", status: "ACTIVE" });
        const set = await tx.log.updateMany({ where: { id: 1, sealIssuerId: null }, data: { sealIssuerId: issuer.id } });
        if (set.count !== 1) throw new MadeElsewhere();
        return issuer.id;
      });
    } catch (err) {
      if (!(err instanceof MadeElsewhere)) throw err;
      id = await read();
      if (!id) throw err;
    }
  }
  known.id = id;
  return id;
}

/** The sealing issuer's id and its current signer. */
export interface Sealer {
  issuerId: string;
  signer: Signer;
}

/** The sealer now (its key rotated like any issuer's when it expires). */
export async function getSealer(): Promise<Sealer> {
  const issuerId = await sealingIssuerId();
  return { issuerId, signer: await getSigner(issuerId) };
}

/** A sealed leaf composed for an entry, not yet signed: what the sealing key signs is `message`. */
export interface UnsignedSeal {
  fields: CanonicalAttestation;
  own: SealFields;
  salt: Buffer;
  message: Buffer;
}

/**
 * Composes the hallmark.sealed/v2 leaf of a signed entry: an id of its own (a random UUIDv4),
 * the entry's created_at to the second, and a commitment, with a fresh salt, to the entry's own
 * leaf data (`inner` is the entry's canonical attestation). The sealing key must be valid at
 * that second (attestationTime dates the entry so).
 */
export function prepareSeal(entry: LogEntry, inner: CanonicalAttestation, sealer: Sealer): UnsignedSeal {
  const salt = newSalt();
  const own = { id: newSealedLeafId(), issuer_id: sealer.issuerId, kid: sealer.signer.kid };
  const fields = sealedFields(inner, leafDataOf(inner, entry.row.signature), own, salt);
  return { fields, own, salt, message: signingMessageOf(fields) };
}

/** The entry logged sealed: the log holds the sealed leaf, the row keeps the attestation and records the seal. */
export function sealedEntry(entry: LogEntry, u: UnsignedSeal, signatureBytes: Uint8Array): LogEntry {
  const signature = Buffer.from(signatureBytes).toString("base64");
  const seal: SealColumn = { ...u.own, salt: u.salt.toString("base64"), signature };
  entry.row.seal = JSON.stringify(seal);
  entry.leafHash = leafHashNode(leafDataOf(u.fields, signature));
  return entry;
}

/** prepareSeal and sealedEntry with the signature made on this thread. */
export function sealEntry(entry: LogEntry, inner: CanonicalAttestation, sealer: Sealer): LogEntry {
  const u = prepareSeal(entry, inner, sealer);
  return sealedEntry(entry, u, signEd25519(sealer.signer.privateKey, u.message));
}
