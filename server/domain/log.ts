import "server-only";
import { toHex } from "../crypto/hash";
import { getDb } from "../db";
import { getStore } from "../store";
import { getLogIdentity } from "../log/log-identity";
import { proveConsistency } from "../log/log-proofs";
import { readTile } from "../log/tiles";
import { publishedCheckpoint, witnessedCheckpoint } from "../log/published";
import { proofRetryAfterS } from "../log/proof-checkpoint";
import { newestStampedSize, tsaCertificatePem } from "../log/timestamping";
import { witnessPolicy } from "../log/witness-policy";
import { describeQuorum } from "@/lib/verify";
import { formatPolicy } from "@/lib/verify/policy";
import { getConfig } from "../config";
import { logMlDsaKey } from "../log/log-ml-dsa";
import { parseTilePath } from "@/lib/verify/tiles";
import { AppError, notFound } from "./errors";
import { toKeyView } from "./signing-keys";
import { iso } from "./ids";

export interface SignedTreeHeadView {
  tree_size: number;
  root_hash: string;
  signature: string;
  origin: string;
  timestamp: string;
  checkpoint: string;
}

type CheckpointRow = { treeSize: bigint; rootHash: Uint8Array; note: string; signature: string; timestamp: Date };

export function toTreeHeadView(origin: string, row: CheckpointRow): SignedTreeHeadView {
  return {
    tree_size: Number(row.treeSize),
    root_hash: toHex(row.rootHash),
    signature: row.signature,
    origin,
    timestamp: iso(row.timestamp),
    checkpoint: row.note,
  };
}

/** The newest checkpoint (the log is created, with an empty one, on first use). */
export async function getLatestCheckpoint(): Promise<CheckpointRow> {
  await getLogIdentity();
  const row = await getStore().reads.latestCheckpoint();
  if (!row) throw new Error("log has no checkpoint");
  return row;
}

/**
 * The published checkpoint's note (server/log/published.ts): under a witness policy in
 * fail-closed mode, the newest the quorum has cosigned, and not_yet_witnessed until one has.
 */
export async function getPublishedNote(): Promise<string> {
  await getLogIdentity();
  const row = await publishedCheckpoint();
  if (!row)
    throw new AppError(
      "not_yet_witnessed",
      "The witnesses the log's policy requires have not yet cosigned any checkpoint of this log (HALLMARK_WITNESS_MODE=fail-closed).",
      undefined,
      { "retry-after": String(proofRetryAfterS()) },
    );
  return row.note;
}

/** A tlog-policy a verifier can pin: this log's key, and the configured witnesses and quorum. */
export async function getLogPolicy(): Promise<string> {
  const id = await getLogIdentity();
  const policy = witnessPolicy();
  const url = `${getConfig().baseUrl}/v1/log`;
  // Every key that signs now: the current one, any still inside a rotation's overlap, and the
  // ML-DSA-44 key (its line is on every published checkpoint; a checkpoint signed by any one of
  // a policy's log keys is the log's).
  const ml = logMlDsaKey(id.origin);
  const logs = [
    ...[id, ...id.overlapping].map((k) => ({
      vkey: k.verifierKey,
      origin: id.origin,
      keyId: new Uint8Array(),
      publicKey: k.publicKey,
      url,
    })),
    { vkey: ml.vkey, origin: id.origin, keyId: ml.keyId, publicKey: ml.publicKey, url },
  ];
  const header = `# The transparency log ${id.origin} (C2SP tlog-policy): its signing keys, its witnesses and their quorum.\n`;
  return (
    header + formatPolicy({ logs, witnesses: policy?.witnesses ?? [], groups: policy?.groups ?? [], quorum: policy?.quorum ?? "none" })
  );
}

/** The TSA the log's checkpoints are time-stamped by, the certificate its tokens chain to, and how far it has stamped. */
async function timestampingView() {
  const { tsaUrl, tsaCertFile, tsaIntervalSeconds } = getConfig();
  if (!tsaUrl || !tsaCertFile) return null;
  return {
    tsa_url: tsaUrl,
    certificate_pem: tsaCertificatePem(),
    interval_seconds: tsaIntervalSeconds,
    stamped_tree_size: Number(await newestStampedSize()),
  };
}

/**
 * The witnesses' state, each with its last error as the witness or the network reported it
 * (addresses, other systems' messages): for operators (`npm run admin -- witnesses`). The public
 * answer (getLogInfo) leaves the errors out and says only how many attempts in a row failed.
 */
export async function getWitnessing() {
  const policy = witnessPolicy();
  if (!policy) return null;
  const db = getDb();
  const [states, published, witnessed, evidence] = await Promise.all([
    db.read.witnessState.findMany(),
    publishedCheckpoint(),
    witnessedCheckpoint(),
    db.read.witnessEvidence.findMany({ orderBy: { id: "desc" }, take: 20 }),
  ]);
  const time = (d: Date | null) => (d ? iso(d) : null);
  return {
    quorum: describeQuorum(policy),
    mode: getConfig().witnessMode,
    published_tree_size: published ? Number(published.treeSize) : 0,
    witnessed_tree_size: witnessed ? Number(witnessed.treeSize) : 0,
    witnesses: policy.witnesses.map((w) => {
      const s = states.find((x) => x.witnessKey === w.key.vkey);
      return {
        name: w.name,
        verifier_key: w.key.vkey,
        url: w.url ?? null,
        cosigned_tree_size: s?.cosignedSize == null ? null : Number(s.cosignedSize),
        cosigned_at: time(s?.cosignedAt ?? null),
        last_attempt_at: time(s?.lastAttemptAt ?? null),
        last_error: s?.lastError ?? null,
        failures: s?.failures ?? 0,
        next_attempt_at: s && s.failures > 0 ? time(s.nextAttemptAt) : null,
      };
    }),
    // The newest 422s (possible evidence of a fork), for the operator: never in the public answer.
    evidence: evidence.map((e) => ({ id: e.id, witness: e.name, tree_size: Number(e.treeSize), status: e.status, at: iso(e.createdAt) })),
  };
}

async function publicWitnessing() {
  const all = await getWitnessing();
  if (!all) return null;
  const { evidence: _, ...shown } = all;
  return { ...shown, witnesses: all.witnesses.map(({ last_error: _, ...w }) => w) };
}

export async function getLogInfo() {
  const id = await getLogIdentity();
  const [latest, witnessing, timestamping] = await Promise.all([getLatestCheckpoint(), publicWitnessing(), timestampingView()]);
  return {
    origin: id.origin,
    tree_size: Number(latest.treeSize),
    root_hash: toHex(latest.rootHash),
    public_key: id.publicKeyPem,
    key_id: id.keyIdHex,
    verifier_key: id.verifierKey,
    ml_dsa_44_verifier_key: logMlDsaKey(id.origin).vkey,
    signature_algorithm: "Ed25519" as const,
    hash_algorithm: "SHA-256" as const,
    keys: [id, ...id.retired].map((k) => ({
      key_id: k.keyIdHex,
      verifier_key: k.verifierKey,
      public_key: k.publicKeyPem,
      signs_from: k.signsFrom ? iso(k.signsFrom) : null,
      signs_until: k.signsUntil ? iso(k.signsUntil) : null,
    })),
    witnessing,
    timestamping,
  };
}

async function checkpointOfSize(size: number, name: string): Promise<CheckpointRow> {
  const row = await getDb().read.checkpoint.findUnique({ where: { treeSize: BigInt(size) } });
  if (!row) {
    throw new AppError("invalid_parameter", `No checkpoint was published with tree size ${size}.`, [
      { pointer: `/${name}`, detail: "must be the tree size of a published checkpoint" },
    ]);
  }
  return row;
}

/** RFC 9162 consistency proof between two published tree sizes, with both signed checkpoints. */
export async function getConsistencyProof({ first, second }: { first: number; second: number }) {
  if (first > second) {
    throw new AppError("invalid_parameter", "first must not exceed second.", [
      { pointer: "/first", detail: "must be less than or equal to second" },
    ]);
  }
  const { origin } = await getLogIdentity();
  const [a, b] = await Promise.all([checkpointOfSize(first, "first"), checkpointOfSize(second, "second")]);
  const hashes = await proveConsistency(first, second);
  return {
    first: toTreeHeadView(origin, a),
    second: toTreeHeadView(origin, b),
    hashes: hashes.map(toHex),
  };
}

/**
 * A tile or entry bundle (C2SP tlog-tiles) by the path segments after `tile/`, within the
 * newest committed tree. A path that is not a tile's canonical path, or a tile the tree does not
 * have yet, is not found.
 */
export async function getTile(segments: readonly string[]): Promise<Uint8Array> {
  const address = parseTilePath(segments);
  if (!address) throw notFound("Tile");
  const { treeSize } = await getLatestCheckpoint();
  const bytes = await readTile(address, Number(treeSize));
  if (!bytes) throw notFound("Tile");
  return bytes;
}

/**
 * An issuer key by its kid, public (a leaf names its kid; a monitor checks each leaf's signature
 * with it). Only the public half, as in proof bundles.
 */
export async function getLogKey(kid: string) {
  const row = /^[A-Za-z0-9_-]{43}$/.test(kid) ? await getStore().reads.signingKey(kid) : null;
  if (!row) throw notFound("Key");
  return toKeyView(row);
}
