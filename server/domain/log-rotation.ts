import "server-only";
import { formatSignedNote, isValidKeyName, noteSignatureBase64, verifierKey } from "@/lib/verify/checkpoint";
import { canonicalJson } from "@/lib/verify/jcs";
import { emptyRootHash } from "@/lib/verify/merkle";
import { utf8Encode } from "@/lib/verify/encoding";
import { SUCCESSOR_TYPE, successorBody, type SuccessorPayload } from "@/lib/verify/successor";
import { leafDataOf, signingMessageOf, type CanonicalAttestation } from "../crypto/attestation-bytes";
import { leafHashNode } from "../crypto/hash";
import { generateEd25519, sealPrivateKey, signEd25519 } from "../crypto/key-custody";
import { dbBytes, getDb } from "../db";
import { reloadLogIdentity, signCheckpoint, toIdentity } from "../log/log-identity";
import { logMlDsaKey } from "../log/log-ml-dsa";
import { appendLeaves, frontierPositions, nodeKey } from "../log/merkle-tree";
import { localOf, positionOf, SHARD_SPAN, shardOf, storedNode } from "../log/positions";
import { getShards } from "../log/shards";
import { AppError } from "./errors";
import { iso, newId } from "./ids";
import { getSealer } from "./sealing";

export interface Rotation {
  previous: { origin: string; verifier_key: string; final_size: number; successor_index: number };
  current: { origin: string; verifier_key: string; ml_dsa_44_verifier_key: string };
}

/** The default name of shard `n` (n ≥ 1): the first log's origin with "/<n>" after it. */
export const shardOrigin = (first: string, n: number): string => `${first}/${n}`;

/**
 * Rotates the log key the way the witness network accepts (one origin, one key): the current
 * log (shard) ends with a successor statement (lib/verify/successor.ts) as its last entry, signed
 * by its key in the statement's note and in the checkpoint that covers it, and a new log starts
 * under a new origin and key, with an empty checkpoint, in the same transaction. Appends on every
 * instance go to the new log from that commit on (log-append.ts reads the identity again when
 * the log row names another shard); witnessing gives the old log's final checkpoint to its
 * witnesses, then the new one's (witnessing.ts).
 */
export async function rotateLog(opts: { origin?: string } = {}): Promise<Rotation> {
  const id = await reloadLogIdentity();
  const shards = await getShards(true);
  const next = id.shard + 1;
  const origin = opts.origin ?? shardOrigin(shards[0]!.origin, next);
  if (!isValidKeyName(origin))
    throw new AppError("invalid_parameter", `"${origin}" is not a valid origin (a note key name: no spaces, no "+").`);
  if (shards.some((s) => s.origin === origin)) throw new AppError("invalid_parameter", `"${origin}" already names a log of this chain.`);
  if (next >= 2 ** 53 / SHARD_SPAN) throw new Error("no further shard fits the position space");
  const sealer = await getSealer();
  const pair = generateEd25519();
  const vkey = verifierKey(origin, pair.publicRaw);
  const ml = logMlDsaKey(origin).vkey;
  const body = successorBody(id.origin, vkey, ml);
  const message = utf8Encode(body);
  const statement =
    formatSignedNote(body, id.origin, id.publicKey, signEd25519(id.privateKey, message)) +
    `\u2014 ${origin} ${noteSignatureBase64(origin, pair.publicRaw, signEd25519(pair.privateKey, message))}\n`;
  const payload: SuccessorPayload = {
    type: SUCCESSOR_TYPE,
    predecessor: id.origin,
    successor: origin,
    verifier_key: vkey,
    ml_dsa_44_verifier_key: ml,
    statement,
  };

  const done = await getDb().write(async (tx) => {
    const now = new Date();
    // The lock every append takes first: nothing is appended to the old log after this entry.
    const log = await tx.log.update({ where: { id: 1 }, data: { updatedAt: now } });
    const head = Number(log.treeSize);
    if (shardOf(head) !== id.shard) throw new AppError("conflict", "Another rotation started a new log meanwhile; nothing was changed.");
    const size = localOf(head);
    const issuer = await tx.issuer.findUniqueOrThrow({ where: { id: sealer.issuerId }, select: { tenantId: true } });
    const fields: CanonicalAttestation = {
      id: newId(),
      issuer_id: sealer.issuerId,
      kid: sealer.signer.kid,
      created_at: iso(now),
      payloadJcs: canonicalJson(payload),
    };
    const signature = Buffer.from(signEd25519(sealer.signer.privateKey, signingMessageOf(fields))).toString("base64");
    const positions = frontierPositions(size).map((p) => storedNode(id.shard, p));
    const stored = await tx.logNode.findMany({ where: { OR: positions.map((p) => ({ level: p.level, index: BigInt(p.index) })) } });
    const byKey = new Map(stored.map((n) => [nodeKey(n.level, Number(n.index)), new Uint8Array(n.hash)]));
    const frontier = positions.map((p) => {
      const hash = byKey.get(nodeKey(p.level, p.index));
      if (!hash) throw new Error(`log node ${p.level}:${p.index} is missing`);
      return hash;
    });
    const grown = appendLeaves(size, frontier, [leafHashNode(leafDataOf(fields, signature))]);
    await tx.attestation.create({
      data: {
        id: fields.id,
        tenantId: issuer.tenantId,
        issuerId: fields.issuer_id,
        kid: fields.kid,
        payload: fields.payloadJcs,
        signature,
        status: "VALID",
        logIndex: BigInt(head),
        createdAt: now,
      },
    });
    await tx.logNode.createMany({
      data: grown.newNodes.map((n) => {
        const at = storedNode(id.shard, n);
        return { level: at.level, index: BigInt(at.index), hash: dbBytes(n.hash) };
      }),
    });
    const final = signCheckpoint(id, grown.size, grown.root);
    await tx.checkpoint.create({
      data: { ...final, treeSize: BigInt(positionOf(id.shard, grown.size)), rootHash: dbBytes(final.rootHash) },
    });
    await tx.logShard.update({ where: { shard: id.shard }, data: { frozenAt: now, finalSize: BigInt(grown.size) } });

    const privateKeyEnc = sealPrivateKey(pair.privateKey, `log:${origin}`);
    await tx.logShard.create({ data: { shard: next, origin, publicKey: dbBytes(pair.publicRaw), createdAt: now } });
    const root = emptyRootHash();
    const empty = signCheckpoint(toIdentity(origin, next, pair.publicRaw, privateKeyEnc, now), 0, root);
    const start = BigInt(positionOf(next, 0));
    await tx.checkpoint.create({ data: { ...empty, treeSize: start, rootHash: dbBytes(root) } });
    await tx.log.update({
      where: { id: 1 },
      data: { origin, publicKey: dbBytes(pair.publicRaw), privateKeyEnc, keySince: now, treeSize: start, rootHash: dbBytes(root) },
    });
    // Keys retired under the old origin never sign under the new one.
    await tx.retiredLogKey.updateMany({ where: { signsUntil: { gt: now } }, data: { signsUntil: now } });
    return { finalSize: grown.size };
  });
  await reloadLogIdentity();
  await getShards(true);
  return {
    previous: { origin: id.origin, verifier_key: id.verifierKey, final_size: done.finalSize, successor_index: done.finalSize - 1 },
    current: { origin, verifier_key: vkey, ml_dsa_44_verifier_key: ml },
  };
}
