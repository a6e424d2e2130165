import "server-only";
import { ZVerification, ZVerificationList } from "../schemas/packs";
import { getVerification, listVerifications, runVerification } from "../../domain/packs";
import { router, scopedProcedure } from "../trpc";
import { ZListVerificationsInput, ZRunVerificationInput } from "./verifications.types";
import { ZIdInput } from "../schemas/common";

/** Verifications: cryptographic checks plus a pack's rules, recorded per tenant. */
export const verificationsRouter = router({
  run: scopedProcedure("verifications:write")
    .meta({
      rest: {
        method: "POST",
        path: "/v1/verifications",
        tag: "Verifications",
        auth: "required",
        input: "body",
        status: 201,
        summary: "Verify an attestation against a pack",
        problems: ["not_found", "pack_archived"],
      },
    })
    .input(ZRunVerificationInput)
    .output(ZVerification)
    .mutation(({ ctx, input }) => runVerification({ tenantId: ctx.principal.tenantId, input })),
  list: scopedProcedure("verifications:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/verifications",
        tag: "Verifications",
        auth: "required",
        input: "query",
        summary: "List verifications",
        description: "Newest first.",
      },
    })
    .input(ZListVerificationsInput)
    .output(ZVerificationList)
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
    .meta({
      rest: {
        method: "GET",
        path: "/v1/verifications/{id}",
        tag: "Verifications",
        auth: "required",
        summary: "Read a verification",
        problems: ["not_found"],
      },
    })
    .input(ZIdInput)
    .output(ZVerification)
    .query(({ ctx, input }) => getVerification({ tenantId: ctx.principal.tenantId, id: input.id })),
});
