import "server-only";
import { z } from "zod";
import { ZAttestation, ZAttestationBatch, ZProofBundle } from "../schemas/attestations";
import { createAttestation, getAttestationOrThrow, toAttestationView } from "../../domain/attestations";
import { getProofBundle, toTlogProof, WITNESSED_HEADER } from "../../domain/public-log";
import { proofOptions } from "../proof-options";
import { router, scopedProcedure } from "../trpc";
import { ZCreateAttestationBatchInput, ZCreateAttestationInput } from "./attestations.types";
import { createAttestationBatch, MAX_BATCH_BODY_BYTES, MAX_BATCH_ITEMS } from "../../domain/attestations";
import { parseIdempotencyKey, requestHashOf } from "../../domain/idempotency";
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from "../schemas/idempotency";
import { ZIdInput, ZProofInput } from "../schemas/common";
import { RESERVED_PAYLOAD_TYPE_PREFIX, refuseReservedPayloadTypes } from "../../domain/payload-types";

const RESERVED_TYPES = `A payload whose \`type\` begins with "${RESERVED_PAYLOAD_TYPE_PREFIX}" (any case) is refused with 422 reserved_payload_type: those types are Hallmark's own (a creator's protection is "hallmark.protection/v1").`;

export const attestationsRouter = router({
  create: scopedProcedure("attestations:write")
    .meta({
      rest: {
        method: "POST",
        path: "/v1/attestations",
        tag: "Attestations",
        auth: "required",
        input: "body",
        status: 201,
        summary: "Sign and log an attestation",
        description: `Signs the payload with the issuer's active key (RFC 8785 canonical JSON, Ed25519) and appends it to the transparency log; answered once its checkpoint is committed. ${RESERVED_TYPES}`,
        problems: ["not_found", "issuer_not_active", "reserved_payload_type"],
      },
    })
    .input(ZCreateAttestationInput)
    .output(ZAttestation)
    .mutation(({ ctx, input }) => {
      refuseReservedPayloadTypes([{ at: "/payload", payload: input.payload }]);
      return createAttestation({
        tenantId: ctx.principal.tenantId,
        issuerId: input.issuer_id,
        payload: input.payload,
        sealed: input.sealed,
      });
    }),
  createBatch: scopedProcedure("attestations:write")
    .meta({
      rest: {
        method: "POST",
        path: "/v1/attestations/batch",
        tag: "Attestations",
        auth: "required",
        input: "body",
        maxBodyBytes: MAX_BATCH_BODY_BYTES,
        status: 201,
        summary: "Sign and log many attestations in one request",
        description: `Up to ${MAX_BATCH_ITEMS} items (a body of at most ${MAX_BATCH_BODY_BYTES / 1024 / 1024} MiB), each signed like POST /v1/attestations and logged together, in order, with contiguous log indexes; answered once all of them are in a committed checkpoint. Any invalid item (its payload, an unknown or suspended issuer) refuses the whole batch with 422 and a pointer per problem (/items/17/payload), and nothing is written. A batch is all sealed or all open: one that mixes them is refused with 422 validation_failed and a pointer to its first sealed item (/items/3/sealed), since the entries of one batch are logged side by side and one signing time, and open entries named by the account would say whose the sealed ones are. One request of the key's budgets. ${RESERVED_TYPES}`,
        problems: ["idempotency_key_reused", "invalid_parameter", "reserved_payload_type"],
        headers: [IDEMPOTENCY_HEADER],
        responseHeaders: [REPLAYED_HEADER],
        response: ZAttestationBatch,
      },
    })
    .input(ZCreateAttestationBatchInput)
    // No output parse: its 1,000 answers are viewOf's, the answer `create` parses with
    // ZAttestation on every call, and parsing them again copies every one (measured:
    // docs/performance.md, "Bulk attestation"). The documented answer is `response` above, which
    // the REST suites check real answers against.
    .mutation(({ ctx, input }) => {
      refuseReservedPayloadTypes(input.items.map((item, i) => ({ at: `/items/${i}/payload`, payload: item.payload })));
      const key = parseIdempotencyKey(ctx.idempotencyKey);
      return createAttestationBatch({
        tenantId: ctx.principal.tenantId,
        items: input.items,
        idempotency: key === null ? undefined : { key, requestHash: requestHashOf(input) },
      });
    }),
  // A consumer reads the attestations of its own protections (its tenant's) with protections:read.
  get: scopedProcedure("attestations:read", "protections:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/attestations/{id}",
        tag: "Attestations",
        auth: "required",
        summary: "Read an attestation",
        problems: ["not_found"],
      },
    })
    .input(ZIdInput)
    .output(ZAttestation)
    .query(async ({ ctx, input }) => toAttestationView(await getAttestationOrThrow({ tenantId: ctx.principal.tenantId, id: input.id }))),
  proofBundle: scopedProcedure("attestations:read", "protections:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/attestations/{id}/proof-bundle",
        tag: "Attestations",
        auth: "required",
        summary: "An attestation's proof bundle",
        input: "query",
        description:
          "The attestation, its issuer and key, an inclusion proof and the signed (and cosigned) checkpoint: everything to verify it offline.",
        problems: ["not_found", "not_yet_witnessed"],
        responseHeaders: [WITNESSED_HEADER],
      },
    })
    .input(ZProofInput)
    .output(ZProofBundle)
    .query(({ ctx, input }) => getProofBundle({ tenantId: ctx.principal.tenantId, id: input.id }, proofOptions(ctx, input))),
  tlogProof: scopedProcedure("attestations:read", "protections:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/attestations/{id}/tlog-proof",
        tag: "Attestations",
        auth: "required",
        produces: "text/plain",
        summary: "An attestation's C2SP tlog-proof",
        input: "query",
        description: "The proof as a C2SP tlog-proof@v1 file, verifiable with the log's verifier key alone.",
        problems: ["not_found", "not_yet_witnessed"],
        responseHeaders: [{ name: "Content-Disposition", description: "attachment; the file name is <id>.tlog-proof" }, WITNESSED_HEADER],
      },
    })
    .input(ZProofInput)
    .output(z.string())
    .query(async ({ ctx, input }) =>
      toTlogProof(await getProofBundle({ tenantId: ctx.principal.tenantId, id: input.id }, proofOptions(ctx, input))),
    ),
});
