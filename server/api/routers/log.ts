import "server-only";
import { ZConsistencyProof, ZLogInfo } from "../schemas/log";
import { ZSigningKey } from "../schemas/attestations";
import { z } from "zod";
import { getConsistencyProof, getLogInfo, getLogKey, getLogPolicy, getPublishedNote, getTile } from "../../domain/log";
import { publicProcedure, router } from "../trpc";
import { ZIntParam } from "./query-params";

const ZTreeSizeParam = ZIntParam(1, Number.MAX_SAFE_INTEGER);

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
          "fail-open the newest checkpoint with the cosignatures it has so far. GET /v1/log gives the newest size beside the published one.",
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
        description:
          "path is <L>/<N>[.p/<W>] for a hash tile or entries/<N>[.p/<W>] for an entry bundle, with N in the spec's x-prefixed three-digit segments. Full tiles never change and are cached for a year.",
        problems: ["not_found"],
        responseHeaders: [{ name: "Cache-Control", description: "public, max-age=31536000, immutable" }],
      },
    })
    .input(z.object({ path: z.string().max(128) }))
    .output(z.custom<Uint8Array>((b) => b instanceof Uint8Array))
    .query(({ input }) => getTile(input.path.split("/"))),
});
