import "server-only";
import { createAttestation, getAttestationOrThrow, toAttestationView } from "../../domain/attestations";
import { getProofBundle, toTlogProof } from "../../domain/proof-bundles";
import { router, scopedProcedure } from "../trpc";
import { ZCreateAttestationInput, ZIdInput } from "./attestations.types";

export const attestationsRouter = router({
  create: scopedProcedure("attestations:write")
    .input(ZCreateAttestationInput)
    .mutation(({ ctx, input }) =>
      createAttestation({ tenantId: ctx.principal.tenantId, issuerId: input.issuer_id, payload: input.payload }),
    ),
  // A consumer reads the attestations of its own protections (its tenant's) with protections:read.
  get: scopedProcedure("attestations:read", "protections:read")
    .input(ZIdInput)
    .query(async ({ ctx, input }) => toAttestationView(await getAttestationOrThrow({ tenantId: ctx.principal.tenantId, id: input.id }))),
  proofBundle: scopedProcedure("attestations:read", "protections:read")
    .input(ZIdInput)
    .query(({ ctx, input }) => getProofBundle({ tenantId: ctx.principal.tenantId, id: input.id })),
  tlogProof: scopedProcedure("attestations:read", "protections:read")
    .input(ZIdInput)
    .query(async ({ ctx, input }) => toTlogProof(await getProofBundle({ tenantId: ctx.principal.tenantId, id: input.id }))),
});
