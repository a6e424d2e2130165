import "server-only";
import { getLogInfo, getLogPolicy, getSuccessorProof } from "../public-log";
import { sha256Hex } from "../../crypto/hash";
import { positionOf } from "../../merkle/positions";
import { quorumApplies } from "../../log/published";
import { getShards } from "../../log/shards";
import { listProtections } from "./protection-list";
import { certificateOf } from "./certificate";
import { cachedCertificatePdf } from "./certificate-pdf-cache";
import { getProofBundle } from "../public-log";
import { getDb } from "../../db";
import { awaitWitnessed } from "../../log/proof-checkpoint";
import { getPublicProtection } from "./public-protections";

/** One file of an account's export: its path in the archive, its contents and its time. */
export interface ExportFile {
  name: string;
  data: string | Uint8Array;
  lastModified: Date;
}

const PAGE = 100;

function readme(origin: string, count: number, shards: number): string {
  return `Your Hallmark protections, exported ${new Date().toISOString()}
${count} protection(s) of the transparency log ${origin}.

Each protections/<id>/ folder holds:
  protection.json   the protection as your account lists it (title, file name, category, ...)
  proof-bundle.json the signed attestation, its issuer's key, an inclusion proof and the log's
                    signed tree head: everything needed to check it offline
  <id>.tlog-proof   the same proof as a C2SP tlog-proof (https://c2sp.org/tlog-proof), with the
                    checkpoint's witness cosignatures
  certificate.pdf   a certificate to show others: it states what the protection's verify link
                    shows and carries the proof bundle and the tlog-proof as attachments

log/ holds the log's public key (log.pem), its note verifier key (verifier-key.txt) and its
policy (policy.txt: its keys, witnesses and their quorum). Keep them: they are what you check
against, and they do not change unless the log rotates its key.

To check a protection without Hallmark, with the verifier in Hallmark's repository (or any
implementation of the C2SP formats):

  npm run verify -- protections/<id>/proof-bundle.json --log-key log/log.pem
  npm run verify -- protections/<id>/<id>.tlog-proof --policy log/policy.txt
  npm run verify -- protections/<id>/certificate.pdf --log-key log/log.pem

and compare the bundle's content_hash with the SHA-256 of your file (sha256sum <file>).
${shards > 1 ? rotated : ""}`;
}

/** What the README adds once the log's key has rotated: a chain of logs. */
const rotated = `
The log's key has rotated: each key is a log of its own, and a protection's proofs name the one
that holds it (their checkpoint's first line). log.pem is the current log's key; policy.txt lists
every log's keys, so --policy log/policy.txt checks any protection. Each successor-<n>.tlog-proof
in log/ is log n's last entry, which names the next log's keys, signed by both: from the first
log's key, --successor follows them (npm run verify -- <proof> --log-key <first log's verifier
key> --successor log/successor-0.tlog-proof ...).
`;

/**
 * GET /v1/consumer/export: every protection of an account with its proofs, and the log's keys
 * and policy, as files for an archive. A generator, a page of protections at a time, so an
 * account with tens of thousands of protections never sits in memory at once.
 */
export async function* exportFiles(tenantId: string): AsyncGenerator<ExportFile> {
  const [info, policy, first] = await Promise.all([getLogInfo(), getLogPolicy(), listProtections({ tenantId, limit: PAGE })]);
  const now = new Date();
  yield { name: "README.txt", data: readme(info.origin, first.total, info.shards.length), lastModified: now };
  yield { name: "log/log.pem", data: info.public_key.endsWith("\n") ? info.public_key : `${info.public_key}\n`, lastModified: now };
  yield { name: "log/verifier-key.txt", data: `${info.verifier_key}\n`, lastModified: now };
  yield { name: "log/policy.txt", data: policy, lastModified: now };
  for (const [n, shard] of info.shards.entries()) {
    if (!shard.successor_url) continue;
    const proof = await getSuccessorProof(sha256Hex(shard.origin), { witnessed: "optional" });
    yield { name: `log/successor-${n}.tlog-proof`, data: proof, lastModified: now };
  }
  let page = first;
  for (;;) {
    for (const item of page.items) {
      // The route waited for the witnesses to cover the account's newest entry (awaitAccountWitnessed):
      // a protection made while the archive streams gets the newest checkpoint as it is.
      const bundle = await getProofBundle({ tenantId, id: item.id }, { witnessed: "optional" });
      const dir = `protections/${item.protection_id}`;
      const lastModified = new Date(item.protected_at);
      const certificate = await certificateOf(await getPublicProtection({ id: item.protection_id, viewer: { tenantId } }), bundle);
      yield { name: `${dir}/protection.json`, data: `${JSON.stringify(item, null, 2)}\n`, lastModified };
      yield { name: `${dir}/proof-bundle.json`, data: `${JSON.stringify(bundle, null, 2)}\n`, lastModified };
      yield { name: `${dir}/${item.protection_id}.tlog-proof`, data: certificate.tlog_proof, lastModified };
      yield { name: `${dir}/certificate.pdf`, data: await cachedCertificatePdf(certificate), lastModified };
    }
    if (!page.next_cursor) return;
    page = await listProtections({ tenantId, limit: PAGE, cursor: page.next_cursor });
  }
}

/**
 * Waits (bounded) until the witnesses' quorum has cosigned a checkpoint covering every entry of
 * the account, or throws not_yet_witnessed: an export's proofs meet the policy, or it is not made.
 */
export async function awaitAccountWitnessed(tenantId: string): Promise<void> {
  if (!quorumApplies()) return;
  // The account's newest entry in each log of the chain (server/merkle/positions.ts): each log has its own checkpoints.
  for (const { shard } of await getShards()) {
    const within = { gte: BigInt(positionOf(shard, 0)), lt: BigInt(positionOf(shard + 1, 0)) };
    const newest = await getDb().read.attestation.aggregate({ where: { tenantId, logIndex: within }, _max: { logIndex: true } });
    const position = newest._max.logIndex;
    if (position !== null && position !== undefined) await awaitWitnessed(Number(position));
  }
}
