import { z } from "zod";
import { ZSignedTreeHead } from "./attestations";
import { ZCount, ZDateTime, ZHex32 } from "./common";

/** Answers about the transparency log. */

const time = ZDateTime.nullable();

export const ZLogInfo = z
  .object({
    origin: z.string().meta({ description: "The log's C2SP origin line." }),
    tree_size: ZCount,
    root_hash: ZHex32,
    public_key: z.string().meta({ description: "The current checkpoint key, SubjectPublicKeyInfo PEM." }),
    key_id: z.string(),
    verifier_key: z.string().meta({ description: "The C2SP signed-note verifier key (name+keyid+key)." }),
    ml_dsa_44_verifier_key: z.string().meta({
      description:
        "The log's ML-DSA-44 verifier key (tlog-cosignature type 0x06, its name the origin). Published and witnessed checkpoints carry its signature line beside the Ed25519 one (signed within a round of the witnessing cadence); a verifier picks its line by key ID.",
    }),
    signature_algorithm: z.literal("Ed25519"),
    hash_algorithm: z.literal("SHA-256"),
    keys: z
      .array(z.object({ key_id: z.string(), verifier_key: z.string(), public_key: z.string(), signs_from: time, signs_until: time }))
      .meta({
        description:
          "The current shard's key, and for the first shard the keys that replaced one another under its origin (each with the time it signed until).",
      }),
    shards: z
      .array(
        z.object({
          origin: z.string(),
          verifier_key: z.string(),
          ml_dsa_44_verifier_key: z.string(),
          state: z.enum(["current", "frozen"]),
          tree_size: ZCount.meta({ description: "A frozen shard's final size; the current one's newest." }),
          created_at: ZDateTime,
          frozen_at: time,
          monitoring_prefix: z.url().meta({ description: "The shard's C2SP tlog-tiles prefix (checkpoint, tile/…)." }),
          successor_url: z
            .url()
            .nullable()
            .meta({ description: "A frozen shard's successor statement as a tlog-proof (its last entry); null for the current one." }),
        }),
      )
      .meta({
        description:
          "Every log of the chain, oldest first: a new log key is a new log (a new origin), as the witness network requires. The current shard is the last; each frozen one ends with a successor statement naming the next.",
      }),
    witnessing: z
      .object({
        quorum: z.string(),
        mode: z.enum(["fail-closed", "fail-open"]).meta({ description: "HALLMARK_WITNESS_MODE: what GET /v1/log/checkpoint serves." }),
        published_tree_size: ZCount.meta({
          description: "The size of the checkpoint GET /v1/log/checkpoint serves (0 before there is one).",
        }),
        witnessed_tree_size: ZCount.meta({
          description: "The size of the newest checkpoint whose cosignatures meet the quorum (0 before there is one).",
        }),
        witnesses: z.array(
          z.object({
            name: z.string(),
            verifier_key: z.string(),
            url: z.string().nullable(),
            cosigned_tree_size: ZCount.nullable().meta({ description: "The size it last cosigned, in the log cosigned_origin names." }),
            cosigned_origin: z.string().nullable().meta({
              description:
                "The shard (origin) of cosigned_tree_size: an earlier one's until the witness has a checkpoint of the current one.",
            }),
            cosigned_at: time,
            last_attempt_at: time,
            failures: ZCount.meta({
              description:
                "Attempts in a row that failed (0 once it cosigns again). Why they failed is for the log's operators (npm run admin -- witnesses), not in this answer.",
            }),
            next_attempt_at: time,
          }),
        ),
      })
      .nullable()
      .meta({ description: "null when no witness policy is configured." }),
    timestamping: z
      .object({
        tsa_url: z.url(),
        certificate_pem: z
          .string()
          .meta({ description: "The certificate(s) the TSA's tokens chain to (HALLMARK_TSA_CERT): pin your own copy to check them." }),
        interval_seconds: ZCount,
        stamped_tree_size: ZCount.meta({ description: "The largest checkpoint with an RFC 3161 token; 0 before the first." }),
      })
      .nullable()
      .meta({ description: "null when no time-stamping authority is configured (HALLMARK_TSA_URL)." }),
  })
  .meta({ id: "LogInfo" });

export const ZConsistencyProof = z.object({ first: ZSignedTreeHead, second: ZSignedTreeHead, hashes: z.array(ZHex32) }).meta({
  id: "ConsistencyProof",
  description: "RFC 9162 §2.1.4 consistency proof from the tree of size first to the tree of size second.",
});
