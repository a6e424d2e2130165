// A checkpoint checked against a pinned tlog-policy: signed by one of the policy's logs for its
// origin, and cosigned by witnesses that satisfy the quorum. Per signed-note, signatures by keys
// the policy does not name are ignored, and a signature by a named key must verify.
import { parseCheckpointBody, parseSignedNote, type VerifiedCheckpoint } from "./checkpoint";
import { isCosignatureBy, verifyCosignature } from "./cosignature";
import { bytesEqual, utf8Encode } from "./encoding";
import { verifyEd25519 } from "./ed25519";
import { VerifyError } from "./errors";
import { describeQuorum, quorumMet, type Policy } from "./policy";

export interface Cosigner {
  /** The witness's name in the policy. */
  witness: string;
  /** Its key name (the signature line's name). */
  keyName: string;
  /**
   * When it cosigned (POSIX seconds, covered by its signature): the newest of its lines. 0 when
   * it stated no time (an ML-DSA-44 cosignature may): it still counts toward the quorum, and says
   * nothing of freshness.
   */
  timestamp: number;
}

export interface WitnessedCheckpoint extends VerifiedCheckpoint {
  /** The policy log key that verified. */
  logKey: string;
  cosigners: Cosigner[];
  quorum: { met: boolean; rule: string };
}

/**
 * Verifies `note` under `policy`. Throws VerifyError for a malformed note, an origin the policy
 * has no key for, a bad log signature, or a bad cosignature by a named witness. Whether the
 * quorum is met is returned (`quorum.met`), not thrown: use requireQuorum to insist on it.
 */
export function verifyWitnessedCheckpoint(note: string, policy: Policy): WitnessedCheckpoint {
  const parsed = parseSignedNote(note);
  const checkpoint = parseCheckpointBody(parsed.body);
  const logs = policy.logs.filter((l) => l.origin === checkpoint.origin);
  if (logs.length === 0) throw new VerifyError("unknown_log", `the policy has no log key for origin "${checkpoint.origin}"`);
  const body = utf8Encode(parsed.body);
  let signedBy: { vkey: string; base64: string } | undefined;
  for (const sig of parsed.signatures) {
    const log = logs.find((l) => sig.name === l.origin && bytesEqual(sig.keyId, l.keyId));
    if (!log) continue;
    const valid = log.mlDsa44
      ? verifyCosignature(parsed.body, sig, log.mlDsa44) !== null
      : verifyEd25519(sig.signature, body, log.publicKey);
    if (!valid) throw new VerifyError("checkpoint_signature_invalid", "a signature by a log key of the policy does not verify");
    signedBy ??= { vkey: log.vkey, base64: sig.base64 };
  }
  if (!signedBy) throw new VerifyError("checkpoint_signature_invalid", "no signature by a log key of the policy");
  const cosigners: Cosigner[] = [];
  for (const w of policy.witnesses) {
    for (const sig of parsed.signatures) {
      if (!isCosignatureBy(sig, w.key)) continue;
      const timestamp = verifyCosignature(parsed.body, sig, w.key);
      if (timestamp === null) throw new VerifyError("cosignature_invalid", `the cosignature by witness ${w.name} does not verify`);
      const known = cosigners.find((c) => c.witness === w.name);
      if (!known) cosigners.push({ witness: w.name, keyName: w.key.name, timestamp });
      else known.timestamp = Math.max(known.timestamp, timestamp);
    }
  }
  const met = quorumMet(policy, new Set(cosigners.map((c) => c.witness)));
  return {
    ...checkpoint,
    body: parsed.body,
    signature: signedBy.base64,
    logKey: signedBy.vkey,
    cosigners,
    quorum: { met, rule: describeQuorum(policy) },
  };
}

/** A cosignature's time in words (UTC), or that it states none (timestamp 0). */
export function describeCosignedAt(timestamp: number): string {
  return timestamp === 0 ? "no time stated" : new Date(timestamp * 1000).toISOString().replace(".000Z", "Z");
}

/** The cosigners in words: each witness, its key name and when it cosigned (UTC). */
export function describeCosigners(cosigners: readonly Cosigner[]): string {
  return cosigners.length
    ? cosigners.map((c) => `${c.witness} (${c.keyName}, ${describeCosignedAt(c.timestamp)})`).join(", ")
    : "no witness";
}

/** Throws quorum_not_met unless the witnessed checkpoint satisfies its policy's quorum. */
export function requireQuorum(cp: WitnessedCheckpoint): WitnessedCheckpoint {
  if (!cp.quorum.met) {
    const who = cp.cosigners.length ? cp.cosigners.map((c) => c.witness).join(", ") : "no witness";
    throw new VerifyError("quorum_not_met", `cosigned by ${who}; the policy requires ${cp.quorum.rule}`);
  }
  return cp;
}
