import "server-only";
import { canonicalJson } from "@/lib/verify/jcs";
import { type CanonicalAttestation, canonicalBody, leafDataOf, signingMessageOf } from "../../crypto/attestation-bytes.mjs";
import { leafHashNode } from "../../crypto/hash";
import { getStore } from "../../store/index";
import { signEd25519 } from "../../crypto/key-custody";
import { getSequencer } from "../../log/sequencer";
import { AppError, notFound } from "../../errors";
import { iso, newId } from "../ids";
import { getSigner, type Signer } from "./signing-keys";
import type { EntryEffects, LogEntry } from "../../log/log-append";
import { getActiveIssuer } from "./issuer-cache";
import { getSealer, sealEntry } from "./sealing";
import { MAX_LEAF_BYTES, MAX_PAYLOAD_BYTES } from "./leaf-bounds";
import { localOf } from "../../merkle/positions";
import { parseJson } from "@/lib/verify/json-parse";

export interface AttestationView {
  id: string;
  issuer_id: string;
  kid: string;
  status: "VALID";
  payload: Record<string, unknown>;
  signature: string;
  log_index: number;
  created_at: string;
  /** Present when the log holds the attestation sealed. */
  sealed?: true;
}

type AttestationRow = {
  id: string;
  issuerId: string;
  kid: string;
  payload: string;
  signature: string;
  logIndex: bigint;
  createdAt: Date;
  seal?: string | null;
};

export function toAttestationView(row: AttestationRow): AttestationView {
  return {
    id: row.id,
    issuer_id: row.issuerId,
    kid: row.kid,
    status: "VALID",
    payload: parseJson(row.payload) as Record<string, unknown>,
    signature: row.signature,
    log_index: localOf(row.logIndex),
    created_at: iso(row.createdAt),
    ...(row.seal ? { sealed: true as const } : {}),
  };
}

/**
 * Signs `payload` with the issuer's current key and appends it to the log. Resolves only
 * once the attestation, its leaf and a checkpoint covering it are committed, with the rows
 * `effects` make for the signed entry (see EntryEffects: they commit with it, or it is refused).
 */
export async function createAttestation(opts: {
  tenantId: string;
  issuerId: string;
  payload: Record<string, unknown>;
  /** Log it sealed (lib/verify/sealed.ts): the log holds only a commitment the owner's proof opens. */
  sealed?: boolean;
  effects?: (row: LogEntry["row"]) => EntryEffects;
}): Promise<AttestationView> {
  const payloadJcs = canonicalPayload(opts.payload);
  await getActiveIssuer(opts.tenantId, opts.issuerId);
  const signer = await getSigner(opts.issuerId);
  const sealer = opts.sealed ? await getSealer() : undefined;
  const u = prepareAttestation(signer, { ...opts, payloadJcs }, sealer?.signer);
  const signed = signedEntry(u, signEd25519(signer.privateKey, u.message));
  const entry = sealer ? sealEntry(signed, u.fields, sealer) : signed;
  if (opts.effects) entry.effects = opts.effects(entry.row);
  return viewOf(entry, opts.payload, await getSequencer().append(entry));
}

/** The answer for a logged entry: its row, the payload as sent, its index in its shard (from its stored position). */
export function viewOf(entry: LogEntry, payload: Record<string, unknown>, logIndex: number): AttestationView {
  return {
    id: entry.row.id,
    issuer_id: entry.row.issuerId,
    kid: entry.row.kid,
    status: "VALID",
    payload,
    signature: entry.row.signature,
    log_index: localOf(logIndex),
    created_at: iso(entry.row.createdAt),
    ...(entry.row.seal ? { sealed: true as const } : {}),
  };
}

/** The payload's RFC 8785 canonical JSON; 422 (pointer /payload) past MAX_PAYLOAD_BYTES. */
export function canonicalPayload(payload: Record<string, unknown>): string {
  const payloadJcs = canonicalJson(payload);
  const size = Buffer.byteLength(payloadJcs, "utf8");
  if (size > MAX_PAYLOAD_BYTES) {
    throw new AppError("validation_failed", "The request body failed validation; see errors.", [
      { pointer: "/payload", detail: `canonical JSON is ${size} bytes; at most ${MAX_PAYLOAD_BYTES} allowed` },
    ]);
  }
  return payloadJcs;
}

/** An attestation dated and composed, not yet signed: what its key signs is `message`. */
export interface UnsignedAttestation {
  fields: CanonicalAttestation;
  tenantId: string;
  createdAt: Date;
  signer: Signer;
  /** canonicalBody(fields): the message and the leaf data are made from it. */
  body: string;
  message: Buffer;
}

/** The first whole second at or after `ms`. */
const secondAtOrAfter = (ms: number) => Math.ceil(ms / 1000) * 1000;

/**
 * Now, for an attestation `signer` signs: never before its key's not_before, nor, when `sealer`
 * will seal it, before the sealing key's first whole second (the sealed leaf is dated to the
 * attestation's second, which must be within the sealing key's validity); 503 while either key
 * is past its expiry (being rotated).
 */
export function attestationTime(signer: Signer, sealer?: Signer): Date {
  const createdAt = new Date(Math.max(Date.now(), signer.notBefore, sealer ? secondAtOrAfter(sealer.notBefore) : 0));
  if (createdAt.getTime() > Math.min(signer.expiresAt, sealer?.expiresAt ?? Infinity))
    throw new AppError("service_unavailable", "The issuer's key is being rotated; retry.");
  return createdAt;
}

/** Dates an attestation of a payload already in RFC 8785 form now (attestationTime). */
export function prepareAttestation(
  signer: Signer,
  opts: { tenantId: string; issuerId: string; payloadJcs: string },
  sealer?: Signer,
): UnsignedAttestation {
  const createdAt = attestationTime(signer, sealer);
  const fields = { id: newId(), issuer_id: opts.issuerId, kid: signer.kid, created_at: iso(createdAt), payloadJcs: opts.payloadJcs };
  const body = canonicalBody(fields);
  return { fields, tenantId: opts.tenantId, createdAt, signer, body, message: signingMessageOf(fields, body) };
}

/** The 422 (pointer /payload) for a payload whose leaf would be `leafSize` bytes, past MAX_LEAF_BYTES; null within it. */
export function leafTooLarge(leafSize: number, payloadJcs: string): AppError | null {
  if (leafSize <= MAX_LEAF_BYTES) return null;
  const room = MAX_LEAF_BYTES - (leafSize - Buffer.byteLength(payloadJcs, "utf8"));
  return new AppError("validation_failed", "The request body failed validation; see errors.", [
    {
      pointer: "/payload",
      detail: `its log entry would be ${leafSize} bytes, at most ${MAX_LEAF_BYTES} allowed: the canonical JSON of the payload may be at most ${room} bytes`,
    },
  ]);
}

/** The entry the sequencer appends, with its signature; 422 (pointer /payload) when its leaf would be too large. */
export function signedEntry(u: UnsignedAttestation, signatureBytes: Uint8Array): LogEntry {
  const { fields } = u;
  const signature = Buffer.from(signatureBytes).toString("base64");
  const leaf = leafDataOf(fields, signature, u.body);
  const tooLarge = leafTooLarge(leaf.length, fields.payloadJcs);
  if (tooLarge) throw tooLarge;
  return {
    row: {
      id: fields.id,
      tenantId: u.tenantId,
      issuerId: fields.issuer_id,
      kid: fields.kid,
      payload: fields.payloadJcs,
      signature,
      createdAt: u.createdAt,
    },
    leafHash: leafHashNode(leaf),
  };
}

/** Signs an attestation of a payload already in RFC 8785 form with `signer`, on this thread: the entry the sequencer appends. */
export function signAttestation(signer: Signer, opts: { tenantId: string; issuerId: string; payloadJcs: string }): LogEntry {
  const u = prepareAttestation(signer, opts);
  return signedEntry(u, signEd25519(signer.privateKey, u.message));
}

export async function getAttestationOrThrow({ tenantId, id }: { tenantId: string; id: string }) {
  const row = await getStore().reads.attestation(id, tenantId);
  if (!row) throw notFound("Attestation");
  return row;
}
