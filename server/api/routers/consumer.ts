import "server-only";
import { parseIdempotencyKey, requestHashOf } from "../../domain/idempotency";
import { getProtectionProofBundle, listProtections } from "../../domain/protection-list";
import { consumerOf, mintProtection } from "../../domain/protections";
import { getUsage } from "../../domain/quotas";
import { router, scopedProcedure } from "../trpc";
import { parseMintBody, ZListProtectionsInput, ZMintInput, ZProtectionIdInput } from "./consumer.types";

/** Mint, protections and usage (issue 3, protections slice). */
export const consumerRouter = router({
  /** POST /v1/consumer/mint. Answers {status, body, replayed}: the route sets the status and Idempotent-Replayed. */
  mint: scopedProcedure("protections:write")
    .input(ZMintInput)
    .mutation(({ ctx, input }) => {
      const body = parseMintBody(input.body);
      const key = parseIdempotencyKey(input.idempotency_key);
      return mintProtection({
        tenantId: ctx.principal.tenantId,
        input: body,
        idempotency: key === null ? undefined : { key, requestHash: requestHashOf(input.body) },
      });
    }),
  protections: scopedProcedure("protections:read")
    .input(ZListProtectionsInput)
    .query(({ ctx, input }) =>
      listProtections({
        tenantId: ctx.principal.tenantId,
        limit: input.limit ?? 20,
        cursor: input.cursor,
        filter: { category: input.category, visibility: input.visibility },
      }),
    ),
  /** The proof bundle of a protection's attestation, for offline verification. */
  proofBundle: scopedProcedure("protections:read")
    .input(ZProtectionIdInput)
    .query(({ ctx, input }) => getProtectionProofBundle({ tenantId: ctx.principal.tenantId, id: input.id })),
  usage: scopedProcedure("protections:read").query(async ({ ctx }) => getUsage(await consumerOf(ctx.principal.tenantId))),
});
