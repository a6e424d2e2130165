import "server-only";
import { ZIssuer, ZIssuerWithKeys, ZSigningKey } from "../schemas/attestations";
import { listOf } from "../schemas/common";
import { createIssuer, getIssuerOrThrow, listIssuers, rotateIssuerKey } from "../../domain/attestations";
import { router, scopedProcedure } from "../trpc";
import { ZIdInput } from "../schemas/common";
import { ZCreateIssuerInput } from "./issuers.types";

export const issuersRouter = router({
  create: scopedProcedure("issuers:write")
    .meta({
      rest: {
        method: "POST",
        path: "/v1/issuers",
        tag: "Issuers",
        auth: "required",
        input: "body",
        status: 201,
        summary: "Create an issuer",
        description: "An issuer with a fresh Ed25519 signing key.",
        problems: ["conflict"],
      },
    })
    .input(ZCreateIssuerInput)
    .output(ZIssuerWithKeys)
    .mutation(({ ctx, input }) => createIssuer({ tenantId: ctx.principal.tenantId, ...input })),
  list: scopedProcedure("issuers:read")
    .meta({ rest: { method: "GET", path: "/v1/issuers", tag: "Issuers", auth: "required", summary: "List issuers" } })
    .output(listOf(ZIssuer))
    .query(async ({ ctx }) => {
      const items = await listIssuers({ tenantId: ctx.principal.tenantId });
      return { items, total: items.length };
    }),
  get: scopedProcedure("issuers:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/issuers/{id}",
        tag: "Issuers",
        auth: "required",
        summary: "Read an issuer",
        problems: ["not_found"],
      },
    })
    .input(ZIdInput)
    .output(ZIssuerWithKeys)
    .query(({ ctx, input }) => getIssuerOrThrow({ tenantId: ctx.principal.tenantId, id: input.id })),
  rotateKey: scopedProcedure("issuers:write")
    .meta({
      rest: {
        method: "POST",
        path: "/v1/issuers/{id}/keys",
        tag: "Issuers",
        auth: "required",
        status: 201,
        summary: "Rotate an issuer's signing key",
        description: "A new key signs from now on; earlier attestations still verify with the key they name.",
        problems: ["not_found", "issuer_not_active"],
      },
    })
    .input(ZIdInput)
    .output(ZSigningKey)
    .mutation(({ ctx, input }) => rotateIssuerKey({ tenantId: ctx.principal.tenantId, id: input.id })),
});
