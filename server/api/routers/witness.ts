import "server-only";
import { z } from "zod";
import { addCheckpoint } from "../../cosigner/add-checkpoint";
import { MAX_ADD_CHECKPOINT_BYTES } from "../../cosigner/request";
import { cosignedCheckpointOf, witnessInfo } from "../../cosigner/witness-info";
import { publicProcedure, router } from "../trpc";

const ZWitnessInfo = z.object({
  name: z.string().meta({ description: "The witness's name: the key name of its cosignature lines." }),
  vkeys: z.array(z.string()).meta({ description: "Its verifier keys (C2SP vkey): Ed25519 (type 0x04) and ML-DSA-44 (type 0x06)." }),
  logs: z.array(
    z.object({
      origin: z.string(),
      vkey: z.string(),
      qpd: z.number().int(),
      cosigned_tree_size: z.number().int().nullable(),
      cosigned_at: z.string().nullable(),
    }),
  ),
});

/** This instance as a C2SP tlog-witness: submission and monitoring prefix {base_url}/v1/witness. */
export const witnessRouter = router({
  info: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/witness",
        tag: "Witness",
        auth: "optional",
        summary: "This instance as a witness: its name, keys and the logs it follows",
        description:
          "The name and verifier keys (Ed25519 and ML-DSA-44) of this instance's witness, and each log of HALLMARK_WITNESS_LOGS with the size it last cosigned. Its submission and monitoring prefix is {base_url}/v1/witness.",
      },
    })
    .output(ZWitnessInfo)
    .query(() => witnessInfo()),
  addCheckpoint: publicProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/v1/witness/add-checkpoint",
        tag: "Witness",
        auth: "no-session",
        input: "text",
        maxBodyBytes: MAX_ADD_CHECKPOINT_BYTES,
        produces: "text/plain",
        summary: "Cosign a checkpoint (C2SP tlog-witness add-checkpoint)",
        description:
          "The body: `old <size>`, the consistency proof lines (base64), a blank line, the checkpoint. 200: cosignature lines (Ed25519, then ML-DSA-44). 409 text/x.tlog.size: the size this witness holds for the log (old must equal it). " +
          "404 unknown_log, 403 untrusted_checkpoint (no valid signature by the log's key), 422 inconsistent_checkpoint (the proof does not verify, or the same size with another root), 400 malformed_request. " +
          "Repeated signature lines by one key are ignored after the first. 403 log_refused: this witness's record of the log is bound to another log key (the list changed it) or other witness keys, until its operator retires the origin. 429 rate_limited (Retry-After): too many failed requests (400, 403, 404, 422) from one address, or the log's daily budget (its qpd) spent.",
        problems: [
          "unknown_log",
          "untrusted_checkpoint",
          "log_refused",
          "inconsistent_checkpoint",
          "not_found",
          "rate_limited",
          "service_unavailable",
        ],
        otherAnswers: {
          "409": {
            description: "The size this witness holds for the log, in decimal and a newline: send again from it.",
            contentType: "text/x.tlog.size",
          },
        },
      },
    })
    // The same cap as /v1's body (maxBodyBytes) for /api/trpc, where the edge's cap is larger:
    // characters first (never more than bytes), then the UTF-8 bytes.
    .input(
      z.object({
        body: z
          .string()
          .max(MAX_ADD_CHECKPOINT_BYTES)
          .refine((s) => Buffer.byteLength(s) <= MAX_ADD_CHECKPOINT_BYTES, `at most ${MAX_ADD_CHECKPOINT_BYTES} bytes`),
      }),
    )
    .output(
      z.union([z.object({ status: z.literal(200), lines: z.string() }), z.object({ status: z.literal(409), size: z.number().int() })]),
    )
    .mutation(({ ctx, input }) => addCheckpoint(input.body, ctx.clientAddress)),
  checkpoint: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/witness/{origin_hash}/checkpoint",
        tag: "Witness",
        auth: "optional",
        produces: "text/plain",
        summary: "The latest checkpoint this witness cosigned for a log",
        description:
          "origin_hash: SHA-256 of the log's origin, lowercase hex. The checkpoint with the log's signature and this witness's cosignatures.",
        problems: ["not_found"],
      },
    })
    .input(z.object({ origin_hash: z.string().regex(/^[0-9a-f]{64}$/) }))
    .output(z.string())
    .query(({ input }) => cosignedCheckpointOf(input.origin_hash)),
});
