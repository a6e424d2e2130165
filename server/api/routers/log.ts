import "server-only";
import { ZConsistencyProof, ZLogInfo } from "../schemas/log";
import { ZSigningKey } from "../schemas/attestations";
import { z } from "zod";
import {
  getConsistencyProof,
  getLogInfo,
  getLogKey,
  getLogPolicy,
  getPublishedNote,
  getShardNote,
  getShardTile,
  getSuccessorProof,
  getTile,
} from "../../domain/public-log";
import { ZWitnessedParam } from "../schemas/common";
import { proofOptions } from "../proof-options";
import { publicProcedure, router } from "../trpc";
import { WITNESSED_HEADER } from "../../domain/public-log";
import { ZIntParam } from "./query-params";

const ZTreeSizeParam = ZIntParam(1, Number.MAX_SAFE_INTEGER);
const ZOriginHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ description: "SHA-256 of the log's origin, lowercase hex (GET /v1/log lists each shard's monitoring prefix)." });
const TILE_PATH =
  "path is <L>/<N>[.p/<W>] for a hash tile or entries/<N>[.p/<W>] for an entry bundle, with N in the spec's x-prefixed three-digit segments. Full tiles never change and are cached for a year.";

/** The log is public: monitors and verifiers need no account. */
export const logRouter = router({
  info: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/log",
        tag: "Transparency log",
        auth: "optional",
        summary: "The log's identity, size and keys",
        description:
          "Its origin, tree size and root, the Ed25519 key that signs checkpoints and its C2SP verifier key, and the witnesses' state.",
      },
    })
    .output(ZLogInfo)
    .query(() => getLogInfo()),
  checkpoint: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/log/checkpoint",
        tag: "Transparency log",
        auth: "optional",
        produces: "text/plain",
        summary: "The published checkpoint",
        description:
          "A C2SP tlog-checkpoint signed note with the log's signature and the witnesses' cosignatures. Without a witness policy, the newest checkpoint. " +
          "Under one, by HALLMARK_WITNESS_MODE: fail-closed (the default) serves the newest checkpoint whose cosignatures meet the policy's quorum (older than the newest while the witnesses catch up; 503 not_yet_witnessed before the first), " +
          "fail-open the newest checkpoint with the cosignatures it has so far. GET /v1/log gives the newest size beside the published one. " +
          "Always the current log's (after a key rotation, the new one's: 503 until its first checkpoint is cosigned in fail-closed mode; an earlier log's is at its own prefix, GET /v1/log/shards/{origin_hash}/checkpoint).",
        problems: ["not_yet_witnessed"],
      },
    })
    .output(z.string())
    .query(() => getPublishedNote()),
  policy: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/log/policy",
        tag: "Transparency log",
        auth: "optional",
        produces: "text/plain",
        summary: "The log's C2SP tlog-policy",
        description: "The log's key, its witnesses and their quorum, for a verifier to pin.",
      },
    })
    .output(z.string())
    .query(() => getLogPolicy()),
  key: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/log/keys/{kid}",
        tag: "Transparency log",
        auth: "optional",
        summary: "An issuer key a log entry names",
        description: "By its kid, so a monitor can check every entry's signature.",
        problems: ["not_found"],
      },
    })
    .input(z.object({ kid: z.string().max(64) }))
    .output(ZSigningKey)
    .query(({ input }) => getLogKey(input.kid)),
  consistency: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/log/consistency",
        tag: "Transparency log",
        auth: "optional",
        input: "query",
        summary: "A consistency proof between two tree sizes",
        description: "RFC 9162 §2.1.4: that the tree of size second extends the tree of size first.",
      },
    })
    .input(z.object({ first: ZTreeSizeParam, second: ZTreeSizeParam }))
    .output(ZConsistencyProof)
    .query(({ input }) => getConsistencyProof(input)),
  tile: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/log/tile/{path}",
        tag: "Transparency log",
        auth: "optional",
        produces: "application/octet-stream",
        summary: "A C2SP tlog-tiles tile or entry bundle",
        description: TILE_PATH,
        problems: ["not_found"],
        responseHeaders: [{ name: "Cache-Control", description: "public, max-age=31536000, immutable" }],
      },
    })
    .input(z.object({ path: z.string().max(128) }))
    .output(z.custom<Uint8Array>((b) => b instanceof Uint8Array))
    .query(({ input }) => getTile(input.path.split("/"))),
  shardCheckpoint: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/log/shards/{origin_hash}/checkpoint",
        tag: "Transparency log",
        auth: "optional",
        produces: "text/plain",
        summary: "A shard's published checkpoint",
        description:
          "Each key of the log is a log of its own (a shard: its own origin and tree); a rotation freezes the current one with a successor statement as its last entry. " +
          "For the current shard, what GET /v1/log/checkpoint serves; for a frozen one, its newest checkpoint that meets the witness policy's quorum (its final one once witnessed).",
        problems: ["not_found", "not_yet_witnessed"],
      },
    })
    .input(z.object({ origin_hash: ZOriginHash }))
    .output(z.string())
    .query(({ input }) => getShardNote(input.origin_hash)),
  shardTile: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/log/shards/{origin_hash}/tile/{path}",
        tag: "Transparency log",
        auth: "optional",
        produces: "application/octet-stream",
        summary: "A shard's C2SP tlog-tiles tile or entry bundle",
        description: `A tile of the shard's own tree. ${TILE_PATH}`,
        problems: ["not_found"],
        responseHeaders: [{ name: "Cache-Control", description: "public, max-age=31536000, immutable" }],
      },
    })
    .input(z.object({ origin_hash: ZOriginHash, path: z.string().max(128) }))
    .output(z.custom<Uint8Array>((b) => b instanceof Uint8Array))
    .query(({ input }) => getShardTile(input.origin_hash, input.path.split("/"))),
  successor: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/log/shards/{origin_hash}/successor",
        tag: "Transparency log",
        auth: "optional",
        produces: "text/plain",
        input: "query",
        summary: "A frozen shard's successor statement, as a C2SP tlog-proof",
        description:
          "The shard's last entry, whose payload names the next shard's origin and keys in a note signed by both shards' keys, with its inclusion proof under the shard's final checkpoint (cosigned by the witnesses). " +
          "A verifier that pins the first shard's key follows these from shard to shard. 404 for the current shard.",
        problems: ["not_found", "not_yet_witnessed"],
        responseHeaders: [WITNESSED_HEADER],
      },
    })
    .input(z.object({ origin_hash: ZOriginHash, witnessed: ZWitnessedParam }))
    .output(z.string())
    .query(({ ctx, input }) => getSuccessorProof(input.origin_hash, proofOptions(ctx, input))),
});
