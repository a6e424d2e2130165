import "server-only";
import { formatSignedNote, isValidKeyName, noteSignatureBase64, verifierKey } from "@/lib/verify/checkpoint";
import { canonicalJson } from "@/lib/verify/jcs";
import { emptyRootHash } from "@/lib/verify/merkle";
import { utf8Encode } from "@/lib/verify/encoding";
import { SUCCESSOR_TYPE, successorBody, type SuccessorPayload } from "@/lib/verify/successor";
import { generateEd25519, sealPrivateKey, signEd25519 } from "../../crypto/key-custody";
import { dbBytes, getDb } from "../../db";
import { reloadLogIdentity, signCheckpoint, toIdentity } from "../../log/log-identity";
import { logMlDsaKey } from "../../log/log-ml-dsa";
import { appendBatch } from "../../log/log-append";
import { localOf, positionOf, SHARD_SPAN, shardOf } from "../../merkle/positions";
import { getShards } from "../../log/shards";
import { prismaLogWriter } from "../../store/prisma-store";
import { signAttestation } from "../attestations";
import { AppError } from "../../errors";
import { getSealer } from "../attestations";

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

  const { tenantId } = await getDb().read.issuer.findUniqueOrThrow({ where: { id: sealer.issuerId }, select: { tenantId: true } });
  const entry = signAttestation(sealer.signer, { tenantId, issuerId: sealer.issuerId, payloadJcs: canonicalJson(payload) });

  const done = await getDb().write(async (tx) => {
    const now = new Date();
    // Appended as every entry is, the log row's lock first: nothing follows it in the old log.
    const [outcome] = await appendBatch(prismaLogWriter(tx), id, [entry]);
    if (!outcome || !("logIndex" in outcome) || shardOf(outcome.logIndex) !== id.shard)
      throw new AppError("conflict", "Another rotation started a new log meanwhile; nothing was changed.");
    const finalSize = localOf(outcome.logIndex) + 1;
    await tx.logShard.update({ where: { shard: id.shard }, data: { frozenAt: now, finalSize: BigInt(finalSize) } });

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
    return { finalSize };
  });
  await reloadLogIdentity();
  await getShards(true);
  return {
    previous: { origin: id.origin, verifier_key: id.verifierKey, final_size: done.finalSize, successor_index: done.finalSize - 1 },
    current: { origin, verifier_key: vkey, ml_dsa_44_verifier_key: ml },
  };
}
