import "server-only";
import { getVerification, listVerifications, runVerification } from "../../domain/verifications";
import { router, scopedProcedure } from "../trpc";
import { ZListVerificationsInput, ZRunVerificationInput, ZVerificationIdInput } from "./verifications.types";

/** Verifications (issue 5): cryptographic checks plus a pack's rules, recorded per tenant. */
export const verificationsRouter = router({
  run: scopedProcedure("verifications:write")
    .input(ZRunVerificationInput)
    .mutation(({ ctx, input }) => runVerification({ tenantId: ctx.principal.tenantId, input })),
  list: scopedProcedure("verifications:read")
    .input(ZListVerificationsInput)
    .query(({ ctx, input }) =>
      listVerifications({
        tenantId: ctx.principal.tenantId,
        packId: input.pack_id,
        result: input.result,
        limit: input.limit ?? 20,
        offset: input.offset ?? 0,
      }),
    ),
  get: scopedProcedure("verifications:read")
    .input(ZVerificationIdInput)
    .query(({ ctx, input }) => getVerification({ tenantId: ctx.principal.tenantId, id: input.id })),
});
