import "server-only";
import { z } from "zod";
import { ZAttestation, ZProofBundle } from "../schemas/attestations";
import { createAttestation, getAttestationOrThrow, toAttestationView } from "../../domain/attestations";
import { getProofBundle, toTlogProof } from "../../domain/proof-bundles";
import { router, scopedProcedure } from "../trpc";
import { ZCreateAttestationInput } from "./attestations.types";
import { ZIdInput } from "../schemas/common";

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
        description:
          "Signs the payload with the issuer's active key (RFC 8785 canonical JSON, Ed25519) and appends it to the transparency log; answered once its checkpoint is committed.",
        problems: ["not_found", "issuer_not_active"],
      },
    })
    .input(ZCreateAttestationInput)
    .output(ZAttestation)
    .mutation(({ ctx, input }) =>
      createAttestation({ tenantId: ctx.principal.tenantId, issuerId: input.issuer_id, payload: input.payload }),
    ),
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
        description:
          "The attestation, its issuer and key, an inclusion proof and the signed (and cosigned) checkpoint: everything to verify it offline.",
        problems: ["not_found"],
      },
    })
    .input(ZIdInput)
    .output(ZProofBundle)
    .query(({ ctx, input }) => getProofBundle({ tenantId: ctx.principal.tenantId, id: input.id })),
  tlogProof: scopedProcedure("attestations:read", "protections:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/attestations/{id}/tlog-proof",
        tag: "Attestations",
        auth: "required",
        produces: "text/plain",
        summary: "An attestation's C2SP tlog-proof",
        description: "The proof as a C2SP tlog-proof@v1 file, verifiable with the log's verifier key alone.",
        problems: ["not_found"],
        responseHeaders: [{ name: "Content-Disposition", description: "attachment; the file name is <id>.tlog-proof" }],
      },
    })
    .input(ZIdInput)
    .output(z.string())
    .query(async ({ ctx, input }) => toTlogProof(await getProofBundle({ tenantId: ctx.principal.tenantId, id: input.id }))),
});
