import "server-only";
import { toHex } from "../../crypto/hash";
import { getDb } from "../../db";
import { getStore } from "../../store/index";
import { getLogIdentity, type LogIdentity, reloadLogIdentity } from "../../log/log-identity";
import { proveConsistency } from "../../log/log-proofs";
import { readTile } from "../../log/tiles";
import { publishedCheckpoint, shardCheckpoint, witnessedCheckpoint } from "../../log/published";
import { localOf, positionOf, shardOf } from "../../merkle/positions";
import { getShards, type Shard } from "../../log/shards";
import { sha256Hex } from "../../crypto/hash";
import { proofRetryAfterS } from "../../log/proof-checkpoint";
import { newestStampedSize, tsaCertificatePem } from "../../log/timestamping";
import { witnessPolicy } from "../../log/witness-policy";
import { describeQuorum } from "@/lib/verify";
import { formatPolicy } from "@/lib/verify/policy";
import { getConfig } from "../../config";
import { logMlDsaKey } from "../../log/log-ml-dsa";
import { parseTilePath } from "@/lib/verify/tiles";
import { AppError, notFound } from "../../errors";
import { getProofBundle, type ProofOptions, toTlogProof } from "./proof-bundles";
import { type CheckpointRow, toTreeHeadView } from "./tree-head-view";
import { toKeyView } from "../attestations";
import { iso } from "../ids";

/**
 * The current log as of the newest checkpoint: its identity and the shards, read again when a
 * rotation (on any instance) has started a shard since this process cached them.
 */
type CurrentLog = { id: LogIdentity; shards: Shard[]; latest: CheckpointRow };
async function currentLog(): Promise<CurrentLog> {
  const latest = await getLatestCheckpoint();
  const shard = shardOf(latest.treeSize);
  const [cachedId, cachedShards] = await Promise.all([getLogIdentity(), getShards()]);
  const [id, shards] = await Promise.all([
    cachedId.shard === shard ? cachedId : reloadLogIdentity(),
    cachedShards.at(-1)?.shard === shard ? cachedShards : getShards(true),
  ]);
  return { id, shards, latest };
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
  const [latest, row] = await Promise.all([getLatestCheckpoint(), publishedCheckpoint()]);
  // After a key rotation /v1/log is the new log, whose tiles are its own: so is its checkpoint
  // (none until the quorum has cosigned one; the old log's is under its shard's prefix).
  return noteOrNotYet(row && shardOf(row.treeSize) === shardOf(latest.treeSize) ? row : null);
}

function noteOrNotYet(row: CheckpointRow | null): string {
  if (!row)
    throw new AppError(
      "not_yet_witnessed",
      "The witnesses the log's policy requires have not yet cosigned any checkpoint of this log (HALLMARK_WITNESS_MODE=fail-closed).",
      undefined,
      { "retry-after": String(proofRetryAfterS()) },
    );
  return row.note;
}

/** The shard whose origin's SHA-256 is `originHash` (hex), else not found. */
async function shardByHash(originHash: string): Promise<Shard> {
  const find = (all: Shard[]) => all.find((s) => sha256Hex(s.origin) === originHash.toLowerCase());
  let shard = find(await getShards());
  // The list is read every few seconds: one that says current may have been frozen since.
  if (!shard || (!shard.frozenAt && shard.shard !== shardOf((await getLatestCheckpoint()).treeSize))) shard = find(await getShards(true));
  if (!shard) throw notFound("Log");
  return shard;
}

/**
 * A shard's published checkpoint (its monitoring prefix is /v1/log/shards/<origin hash>): the
 * current shard's is GET /v1/log/checkpoint's; a frozen shard's is its newest that meets the
 * quorum (in fail-open mode, its newest), which once witnessed is its final checkpoint.
 */
export async function getShardNote(originHash: string): Promise<string> {
  const shard = await shardByHash(originHash);
  if (!shard.frozenAt) return getPublishedNote();
  return noteOrNotYet(await shardCheckpoint(shard.shard));
}

/** A tlog-policy a verifier can pin: this log's key, and the configured witnesses and quorum. */
export async function getLogPolicy(): Promise<string> {
  const { id, shards } = await currentLog();
  const policy = witnessPolicy();
  const base = `${getConfig().baseUrl}/v1/log`;
  // Every shard's keys (what each signed still verifies; the chain's newest signs now), each key
  // of shard 0 still inside an overlap under its origin, and each shard's ML-DSA-44 key (its line
  // is on every published checkpoint; a checkpoint signed by any one of a policy's keys for its
  // origin is the log's).
  const logs = shards.flatMap((s) => {
    const url = s.shard === id.shard ? base : `${base}/shards/${sha256Hex(s.origin)}`;
    const ml = logMlDsaKey(s.origin);
    const own = (k: { verifierKey: string; publicKey: Uint8Array }) => ({
      vkey: k.verifierKey,
      origin: s.origin,
      keyId: new Uint8Array(),
      publicKey: k.publicKey,
      url,
    });
    const overlapping = s.shard === id.shard ? id.overlapping.filter((k) => k.verifierKey !== s.verifierKey) : [];
    return [own(s), ...overlapping.map(own), { vkey: ml.vkey, origin: s.origin, keyId: ml.keyId, publicKey: ml.publicKey, url }];
  });
  const named = shards.length > 1 ? `${id.origin}, its earlier shards` : id.origin;
  const header = `# The transparency log ${named} (C2SP tlog-policy): its signing keys, its witnesses and their quorum.\n`;
  return (
    header + formatPolicy({ logs, witnesses: policy?.witnesses ?? [], groups: policy?.groups ?? [], quorum: policy?.quorum ?? "none" })
  );
}

/**
 * The TSA the log's checkpoints are time-stamped by, the certificate its tokens chain to, and how
 * far it has stamped the current shard (0: not yet).
 */
async function timestampingView(current: Promise<CurrentLog>) {
  const { tsaUrl, tsaCertFile, tsaIntervalSeconds } = getConfig();
  if (!tsaUrl || !tsaCertFile) return null;
  const [stamped, { id }] = await Promise.all([newestStampedSize(), current]);
  return {
    tsa_url: tsaUrl,
    certificate_pem: tsaCertificatePem(),
    interval_seconds: tsaIntervalSeconds,
    stamped_tree_size: shardOf(stamped) === id.shard ? localOf(stamped) : 0,
  };
}

/**
 * The witnesses' state, each with its last error as the witness or the network reported it
 * (addresses, other systems' messages): for operators (`npm run admin -- witnesses`). The public
 * answer (getLogInfo) leaves the errors out and says only how many attempts in a row failed.
 */
export async function getWitnessing(current: Promise<CurrentLog> = currentLog()) {
  const policy = witnessPolicy();
  if (!policy) return null;
  const db = getDb();
  const [states, published, witnessed, evidence, { id, shards }] = await Promise.all([
    db.read.witnessState.findMany(),
    publishedCheckpoint(),
    witnessedCheckpoint(),
    db.read.witnessEvidence.findMany({ orderBy: { id: "desc" }, take: 20 }),
    current,
  ]);
  const time = (d: Date | null) => (d ? iso(d) : null);
  // Sizes in the current shard (0: none there yet); a witness's, in the shard it last cosigned.
  const shard = id.shard;
  const sizeIn = (cp: CheckpointRow | null) => (cp && shardOf(cp.treeSize) === shard ? localOf(cp.treeSize) : 0);
  return {
    quorum: describeQuorum(policy),
    mode: getConfig().witnessMode,
    published_tree_size: sizeIn(published),
    witnessed_tree_size: sizeIn(witnessed),
    witnesses: policy.witnesses.map((w) => {
      const s = states.find((x) => x.witnessKey === w.key.vkey);
      return {
        name: w.name,
        verifier_key: w.key.vkey,
        url: w.url ?? null,
        cosigned_tree_size: s?.cosignedSize == null ? null : localOf(s.cosignedSize),
        cosigned_origin: s?.cosignedSize == null ? null : (shards.find((x) => x.shard === shardOf(s.cosignedSize!))?.origin ?? null),
        cosigned_at: time(s?.cosignedAt ?? null),
        last_attempt_at: time(s?.lastAttemptAt ?? null),
        last_error: s?.lastError ?? null,
        failures: s?.failures ?? 0,
        next_attempt_at: s && s.failures > 0 ? time(s.nextAttemptAt) : null,
      };
    }),
    // The newest 422s (possible evidence of a fork), for the operator: never in the public answer.
    evidence: evidence.map((e) => ({ id: e.id, witness: e.name, tree_size: localOf(e.treeSize), status: e.status, at: iso(e.createdAt) })),
  };
}

async function publicWitnessing(current: Promise<CurrentLog>) {
  const all = await getWitnessing(current);
  if (!all) return null;
  const { evidence: _, ...shown } = all;
  return { ...shown, witnesses: all.witnesses.map(({ last_error: _, ...w }) => w) };
}

export async function getLogInfo() {
  // Read once for the answer's every part.
  const current = currentLog();
  const [{ id, shards, latest }, witnessing, timestamping] = await Promise.all([
    current,
    publicWitnessing(current),
    timestampingView(current),
  ]);
  const base = `${getConfig().baseUrl}/v1/log`;
  return {
    origin: id.origin,
    tree_size: localOf(latest.treeSize),
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
    shards: shards.map((s) => {
      const prefix = `${base}/shards/${sha256Hex(s.origin)}`;
      return {
        origin: s.origin,
        verifier_key: s.verifierKey,
        ml_dsa_44_verifier_key: s.mlDsa44VerifierKey,
        state: s.frozenAt ? ("frozen" as const) : ("current" as const),
        tree_size: s.frozenAt ? s.finalSize! : localOf(latest.treeSize),
        created_at: iso(s.createdAt),
        frozen_at: s.frozenAt ? iso(s.frozenAt) : null,
        monitoring_prefix: s.frozenAt ? prefix : base,
        successor_url: s.frozenAt ? `${prefix}/successor` : null,
      };
    }),
    witnessing,
    timestamping,
  };
}

async function checkpointOfSize(position: number, name: string): Promise<CheckpointRow> {
  const row = await getDb().read.checkpoint.findUnique({ where: { treeSize: BigInt(position) } });
  if (!row) {
    throw new AppError("invalid_parameter", `No checkpoint was published with tree size ${localOf(position)}.`, [
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
  const { origin, shard } = (await currentLog()).id;
  const [a, b] = await Promise.all([
    checkpointOfSize(positionOf(shard, first), "first"),
    checkpointOfSize(positionOf(shard, second), "second"),
  ]);
  const hashes = await proveConsistency(shard, first, second);
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
  const { treeSize } = await getLatestCheckpoint();
  return tileOf(shardOf(treeSize), localOf(treeSize), segments);
}

/** A tile of a shard (its monitoring prefix /v1/log/shards/<origin hash>), within its newest tree (a frozen shard's final one). */
export async function getShardTile(originHash: string, segments: readonly string[]): Promise<Uint8Array> {
  const shard = await shardByHash(originHash);
  if (!shard.frozenAt) return getTile(segments);
  return tileOf(shard.shard, shard.finalSize!, segments);
}

async function tileOf(shard: number, size: number, segments: readonly string[]): Promise<Uint8Array> {
  const address = parseTilePath(segments);
  if (!address) throw notFound("Tile");
  const bytes = await readTile(shard, address, size);
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

/**
 * A frozen shard's successor statement as a C2SP tlog-proof: its last entry (the statement,
 * lib/verify/successor.ts) under its final checkpoint, cosigned by the witnesses. A verifier that
 * pins the shard's key checks it, and that its index is the checkpoint's size minus one.
 */
export async function getSuccessorProof(originHash: string, proof: ProofOptions): Promise<string> {
  const shard = await shardByHash(originHash);
  if (!shard.frozenAt || shard.finalSize === null) throw notFound("Successor statement");
  const row = await getDb().read.attestation.findUnique({
    where: { logIndex: BigInt(positionOf(shard.shard, shard.finalSize - 1)) },
    select: { id: true, tenantId: true },
  });
  if (!row) throw new Error(`the successor statement of log shard ${shard.shard} is missing`);
  return toTlogProof(await getProofBundle({ tenantId: row.tenantId, id: row.id }, proof));
}
