import "server-only";
import { createIssuer, getIssuerOrThrow, listIssuers, rotateIssuerKey } from "../../domain/issuers";
import { router, scopedProcedure } from "../trpc";
import { ZIdInput } from "./attestations.types";
import { ZCreateIssuerInput } from "./issuers.types";

export const issuersRouter = router({
  create: scopedProcedure("issuers:write")
    .input(ZCreateIssuerInput)
    .mutation(({ ctx, input }) => createIssuer({ tenantId: ctx.principal.tenantId, ...input })),
  list: scopedProcedure("issuers:read").query(({ ctx }) => listIssuers({ tenantId: ctx.principal.tenantId })),
  get: scopedProcedure("issuers:read")
    .input(ZIdInput)
    .query(({ ctx, input }) => getIssuerOrThrow({ tenantId: ctx.principal.tenantId, id: input.id })),
  rotateKey: scopedProcedure("issuers:write")
    .input(ZIdInput)
    .mutation(({ ctx, input }) => rotateIssuerKey({ tenantId: ctx.principal.tenantId, id: input.id })),
});
