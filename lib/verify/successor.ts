// A log's successor statement: how a Hallmark log names the log that follows it when its key
// rotates (C2SP logs have one origin and one key, for ever; a new key is a new log, as Rekor v2's
// shards are). The old log's last entry is an attestation whose payload is the statement, so the
// old log's key signs it (its checkpoint covers the entry) and its witnesses cosign it. The
// statement is also a C2SP signed note, signed by the old log's key and by the new one:
//
//   hallmark.log-successor/v1
//   <old origin>
//   <new log's Ed25519 verifier key>
//   <new log's ML-DSA-44 verifier key>
//
// A verifier that pins the first log's key follows the chain: for each log, a tlog-proof of its
// last entry under its final checkpoint, whose payload names the next log's keys.
import { VerifyError } from "./errors";
import { noteKeyId, parseSignedNote, parseVerifierKey, verifierKey, verifyParsedNote } from "./checkpoint";
import { parseMlDsaLogKey } from "./log-signature";
import type { Policy } from "./policy";
import { type LoggedAttestation, verifyTlogProof } from "./tlog-proof";

export const SUCCESSOR_TYPE = "hallmark.log-successor/v1";

/** The attestation payload of a successor statement (its members are exactly these). */
export interface SuccessorPayload {
  type: typeof SUCCESSOR_TYPE;
  /** The old log's origin. */
  predecessor: string;
  /** The new log's origin (the name of both its verifier keys). */
  successor: string;
  verifier_key: string;
  ml_dsa_44_verifier_key: string;
  /** The signed note above. */
  statement: string;
}

/** The statement's note body. */
export function successorBody(predecessor: string, verifierKey: string, mlDsa44VerifierKey: string): string {
  return `${SUCCESSOR_TYPE}\n${predecessor}\n${verifierKey}\n${mlDsa44VerifierKey}\n`;
}

const MEMBERS = "ml_dsa_44_verifier_key,predecessor,statement,successor,type,verifier_key";

/** Whether an attestation's payload is a successor statement (by its type; verifySuccessor checks the rest). */
export const isSuccessorStatement = (payload: Record<string, unknown>): boolean => payload.type === SUCCESSOR_TYPE;

export interface VerifiedSuccessor {
  origin: string;
  /** The new log's Ed25519 key. */
  publicKey: Uint8Array;
  verifierKey: string;
  mlDsa44VerifierKey: string;
}

/**
 * Checks the successor statement an entry of the log `predecessor` holds: its members, its note
 * signed by the old log's key and by the new key it names. Throws VerifyError.
 */
export function verifySuccessor(entry: LoggedAttestation, predecessor: { origin: string; publicKey: Uint8Array }): VerifiedSuccessor {
  const p = entry.payload as Partial<SuccessorPayload>;
  const bad = (why: string) => new VerifyError("successor_invalid", `the successor statement ${why}`);
  if (Object.keys(p).sort().join(",") !== MEMBERS || p.type !== SUCCESSOR_TYPE) throw bad("does not have the members of one");
  if (p.predecessor !== predecessor.origin) throw bad(`names ${String(p.predecessor)} as the old log, not ${predecessor.origin}`);
  if (typeof p.verifier_key !== "string" || typeof p.ml_dsa_44_verifier_key !== "string" || typeof p.statement !== "string")
    throw bad("has members that are not strings");
  let next: ReturnType<typeof parseVerifierKey>;
  try {
    next = parseVerifierKey(p.verifier_key);
  } catch {
    throw bad("names a verifier key that is not an Ed25519 one");
  }
  if (next.name !== p.successor || next.name === predecessor.origin) throw bad("names a key of another origin than its successor");
  const ml = parseMlDsaLogKey(p.ml_dsa_44_verifier_key);
  if (!ml) throw bad("names an ML-DSA-44 verifier key that is not one");
  if (ml.name !== p.successor) throw bad("names an ML-DSA-44 key of another origin");
  const note = parseSignedNote(p.statement);
  if (note.body !== successorBody(predecessor.origin, p.verifier_key, p.ml_dsa_44_verifier_key))
    throw bad("note's body differs from its members");
  verifyParsedNote(note, { name: predecessor.origin, publicKey: predecessor.publicKey });
  verifyParsedNote(note, { name: next.name, publicKey: next.publicKey });
  return { origin: next.name, publicKey: next.publicKey, verifierKey: p.verifier_key, mlDsa44VerifierKey: p.ml_dsa_44_verifier_key };
}

/** A verified step of the chain: the next log, and the size at which the previous one ended. */
export interface ChainStep extends VerifiedSuccessor {
  finalSize: number;
}

/**
 * Verifies one step of a log chain: `proof`, a tlog-proof of the log `log`'s successor statement
 * (GET /v1/log/shards/<origin hash>/successor), under that log's key and, with `witnesses`, under
 * that policy's witnesses and quorum. The statement must be the last entry of the checkpoint it
 * is proven in. Returns the next log's keys. Throws VerifyError.
 */
export function verifySuccessorProof(proof: string, log: { origin: string; publicKey: Uint8Array }, witnesses?: Policy): ChainStep {
  const trust = witnesses
    ? {
        policy: {
          ...witnesses,
          logs: [
            {
              vkey: verifierKey(log.origin, log.publicKey),
              origin: log.origin,
              keyId: noteKeyId(log.origin, log.publicKey),
              publicKey: log.publicKey,
            },
          ],
        },
      }
    : { logPublicKey: log.publicKey, origin: log.origin };
  const r = verifyTlogProof(proof, trust);
  if (r.sealed) throw new VerifyError("successor_invalid", "a successor statement is never a sealed entry");
  if (r.index !== r.treeSize - 1)
    throw new VerifyError(
      "chain_invalid",
      `the successor statement is entry ${r.index}, not the last of the ${r.treeSize} its checkpoint holds`,
    );
  return { ...verifySuccessor(r.attestation, log), finalSize: r.treeSize };
}
