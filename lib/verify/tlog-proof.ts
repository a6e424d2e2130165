// C2SP tlog-proof@v1 (https://c2sp.org/tlog-proof): a checkpoint (with its cosignatures), an
// entry's index and its inclusion proof, and for Hallmark an `extra` line holding the base64
// leaf data, so that the file alone rebuilds the leaf hash. For a sealed entry
// (lib/verify/sealed.ts) whose owner shares its opening, `extra` is instead the canonical JSON
// {"opening": {"attestation": …, "salt": …}, "sealed": <the sealed leaf>}: the leaf hash is
// rebuilt from `sealed`, and the opening is checked against its commitment.
import { leafData } from "./attestation";
import { canonicalJson } from "./jcs";
import { checkSealOpening, type EntryKind, entryKindOf, type SealOpening } from "./sealed";
import { base64ToBytes, bytesEqual, bytesToBase64, utf8Decode } from "./encoding";
import { VerifyError } from "./errors";
import { HASH_SIZE, leafHash, verifyInclusion } from "./merkle";
import type { Policy } from "./policy";
import { describeCosigners, requireQuorum, verifyWitnessedCheckpoint, type Cosigner } from "./witnessed";
import { verifyLogCheckpoint } from "./log-signature";
import type { CosignerKey } from "./cosignature";
import { parseJson } from "./json-parse";

export const TLOG_PROOF_HEADER = "c2sp.org/tlog-proof@v1";
/** A proof larger than this is refused before parsing (the checkpoint's cap, plus room). */
export const MAX_TLOG_PROOF_BYTES = 1024 * 1024 + 256 * 1024;

export interface TlogProof {
  extra?: Uint8Array;
  index: number;
  proof: Uint8Array[];
  /** The checkpoint note, verbatim (with any cosignatures). */
  checkpoint: string;
}

export function formatTlogProof(p: TlogProof): string {
  const lines = [TLOG_PROOF_HEADER];
  if (p.extra) lines.push(`extra ${bytesToBase64(p.extra)}`);
  lines.push(`index ${p.index}`, ...p.proof.map(bytesToBase64), "");
  return `${lines.join("\n")}\n${p.checkpoint}`;
}

const malformed = (m: string) => new VerifyError("malformed_tlog_proof", m);

export function parseTlogProof(text: string): TlogProof {
  if (typeof text !== "string") throw malformed("a tlog-proof is text");
  if (text.length > MAX_TLOG_PROOF_BYTES) throw malformed("the proof is too large");
  const lines = text.split("\n");
  if (lines[0] !== TLOG_PROOF_HEADER) throw malformed(`the first line must be ${TLOG_PROOF_HEADER}`);
  let i = 1;
  let extra: Uint8Array | undefined;
  if (lines[i]?.startsWith("extra ")) {
    try {
      extra = base64ToBytes(lines[i]!.slice(6));
    } catch {
      throw malformed("the extra line is not base64");
    }
    i++;
  }
  const m = /^index (0|[1-9][0-9]{0,15})$/.exec(lines[i] ?? "");
  if (!m || !Number.isSafeInteger(Number(m[1]))) throw malformed("expected an index line");
  i++;
  const proof: Uint8Array[] = [];
  for (; i < lines.length && lines[i] !== ""; i++) {
    let h: Uint8Array;
    try {
      h = base64ToBytes(lines[i]!);
    } catch {
      throw malformed("an inclusion proof line is not base64");
    }
    if (h.length !== HASH_SIZE) throw malformed("an inclusion proof line is not a SHA-256 hash");
    if (proof.length >= 64) throw malformed("the inclusion proof is too long");
    proof.push(h);
  }
  if (i >= lines.length) throw malformed("no blank line before the checkpoint");
  return { ...(extra ? { extra } : {}), index: Number(m[1]), proof, checkpoint: lines.slice(i + 1).join("\n") };
}

/** The attestation a Hallmark leaf holds (its leaf data is the JCS of exactly these fields). */
export interface LoggedAttestation {
  id: string;
  issuer_id: string;
  kid: string;
  payload: Record<string, unknown>;
  created_at: string;
  signature: string;
}

export interface TlogProofVerification {
  origin: string;
  treeSize: number;
  index: number;
  /** The attestation: the leaf's own, or for a sealed entry the one its opening gives. */
  attestation: LoggedAttestation;
  /** For a sealed entry with its opening: the sealed leaf the log holds (its signature is the sealing issuer's). */
  sealed?: LoggedAttestation;
  /** open, opened (a sealed entry with its opening), or sealed (a sealed leaf alone: `attestation` is that leaf). */
  kind: EntryKind;
  /** With a policy: the witnesses that cosigned (the quorum is met, or verification failed). */
  cosigners: Cosigner[];
  quorum?: string;
}

const membersOf = (v: unknown): string => (v && typeof v === "object" && !Array.isArray(v) ? Object.keys(v).sort().join(",") : "");

function isAttestation(a: unknown): a is LoggedAttestation {
  if (membersOf(a) !== "created_at,id,issuer_id,kid,payload,signature") return false;
  const r = a as Record<string, unknown>;
  const p = r.payload;
  const texts = ["created_at", "id", "issuer_id", "kid", "signature"].every((k) => typeof r[k] === "string");
  return texts && typeof p === "object" && p !== null && !Array.isArray(p);
}

/** What a Hallmark tlog-proof's `extra` holds: the leaf data, and for a sealed entry its opening. */
export interface ProofExtra {
  /** The leaf the log holds (the sealed leaf, for a sealed entry). */
  leaf: LoggedAttestation;
  leafData: Uint8Array;
  opening?: SealOpening;
}

/** Reads `extra`: an attestation's leaf data, or a sealed entry's {opening, sealed}; canonical JSON either way. */
export function readProofExtra(extra: Uint8Array | undefined): ProofExtra {
  if (!extra) throw malformed("a Hallmark tlog-proof carries the leaf data in its extra line");
  let text: string;
  let v: unknown;
  try {
    text = utf8Decode(extra);
    v = parseJson(text);
  } catch {
    throw malformed("the extra line is not JSON");
  }
  if (membersOf(v) === "opening,sealed") {
    const { opening, sealed } = v as { opening: { attestation?: unknown; salt?: unknown }; sealed: unknown };
    if (
      membersOf(opening) !== "attestation,salt" ||
      typeof opening.salt !== "string" ||
      !isAttestation(opening.attestation) ||
      !isAttestation(sealed)
    ) {
      throw malformed("the extra line is not a sealed entry's leaf and opening");
    }
    if (canonicalJson(v) !== text) throw malformed("the extra line is not canonical JSON");
    return { leaf: sealed, leafData: leafData(sealed), opening: { salt: opening.salt, attestation: opening.attestation } };
  }
  if (!isAttestation(v)) throw malformed("the extra line is not an attestation's leaf data");
  if (!bytesEqual(leafData(v), extra)) throw malformed("the leaf data is not canonical JSON");
  return { leaf: v, leafData: extra };
}

/** The checks of a tlog-proof, in the order they run (witnesses only under a policy, seal_opening only for a sealed entry). */
export type TlogProofCheck = "checkpoint_signature" | "witnesses" | "seal_opening" | "inclusion";

/**
 * Verifies a tlog-proof: the checkpoint under the policy (with its quorum) or under the log's
 * key, a sealed entry's opening, and the inclusion of the leaf rebuilt from `extra` at `index`.
 * Throws VerifyError at the first failure; `passed` hears of each check that passed, with what it
 * found.
 */
export function verifyTlogProof(
  text: string,
  trust: { policy: Policy } | { logPublicKey: Uint8Array; origin?: string; mlDsa44?: CosignerKey },
  passed: (check: TlogProofCheck, detail: string) => void = () => {},
): TlogProofVerification {
  const p = parseTlogProof(text);
  const extra = readProofExtra(p.extra);
  let cp: { origin: string; treeSize: number; rootHash: Uint8Array };
  let cosigners: Cosigner[] = [];
  let quorum: string | undefined;
  if ("policy" in trust) {
    const w = verifyWitnessedCheckpoint(p.checkpoint, trust.policy);
    passed("checkpoint_signature", `tree head of ${w.origin} at size ${w.treeSize} is signed by the log key`);
    requireQuorum(w);
    cp = w;
    cosigners = w.cosigners;
    quorum = w.quorum.rule;
    passed("witnesses", `cosigned by ${describeCosigners(cosigners)}; quorum ${quorum} met`);
  } else {
    cp = verifyLogCheckpoint(p.checkpoint, { publicKey: trust.logPublicKey, origin: trust.origin, mlDsa44: trust.mlDsa44 });
    passed("checkpoint_signature", `tree head of ${cp.origin} at size ${cp.treeSize} is signed by the log key`);
  }
  if (extra.opening) {
    checkSealOpening(extra.leaf, extra.opening);
    passed("seal_opening", `the salt opens the sealed leaf's commitment ${String(extra.leaf.payload.commitment)} to the attestation`);
  }
  if (p.index >= cp.treeSize)
    throw new VerifyError("inclusion_proof_invalid", `index ${p.index} is outside the signed tree of size ${cp.treeSize}`);
  if (!verifyInclusion(p.index, cp.treeSize, leafHash(extra.leafData), p.proof, cp.rootHash)) {
    throw new VerifyError("inclusion_proof_invalid", "the leaf is not at that index in the signed tree");
  }
  passed("inclusion", `${extra.opening ? "the sealed leaf" : "the leaf"} is entry ${p.index} of ${cp.treeSize}`);
  return {
    origin: cp.origin,
    treeSize: cp.treeSize,
    index: p.index,
    attestation: extra.opening ? (extra.opening.attestation as LoggedAttestation) : extra.leaf,
    ...(extra.opening ? { sealed: extra.leaf } : {}),
    kind: entryKindOf(extra.opening !== undefined, extra.leaf.payload),
    cosigners,
    ...(quorum ? { quorum } : {}),
  };
}
