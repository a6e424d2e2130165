import "server-only";
import { ZPackList, ZPackView } from "../schemas/packs";
import { clonePack, createPack, getPack, listPacks, updatePack } from "../../domain/packs";
import { router, scopedProcedure } from "../trpc";
import { requireAChange, ZClonePackInput, ZCreatePackInput, ZListPacksInput, ZUpdatePackInput } from "./packs.types";
import { ZIdInput } from "../schemas/common";

/** Verification packs: built-in templates and the tenant's custom packs. */
export const packsRouter = router({
  list: scopedProcedure("packs:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/attestation-packs",
        tag: "Packs",
        auth: "required",
        input: "query",
        summary: "List verification packs",
        description: "Built-in templates first (created on first access), then custom packs, newest first.",
      },
    })
    .input(ZListPacksInput)
    .output(ZPackList)
    .query(({ ctx, input }) =>
      listPacks({
        tenantId: ctx.principal.tenantId,
        status: input.status,
        isTemplate: input.is_template === undefined ? undefined : input.is_template === "true",
        limit: input.limit ?? 100,
        offset: input.offset ?? 0,
      }),
    ),
  get: scopedProcedure("packs:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/attestation-packs/{id}",
        tag: "Packs",
        auth: "required",
        summary: "Read a pack",
        description: "A pack with its current verification count, status and rules.",
        problems: ["not_found"],
      },
    })
    .input(ZIdInput)
    .output(ZPackView)
    .query(({ ctx, input }) => getPack({ tenantId: ctx.principal.tenantId, id: input.id })),
  create: scopedProcedure("packs:write")
    .meta({
      rest: {
        method: "POST",
        path: "/v1/attestation-packs",
        tag: "Packs",
        auth: "required",
        input: "body",
        status: 201,
        summary: "Create a custom pack",
      },
    })
    .input(ZCreatePackInput)
    .output(ZPackView)
    .mutation(({ ctx, input }) => createPack({ tenantId: ctx.principal.tenantId, input })),
  update: scopedProcedure("packs:write")
    .meta({
      rest: {
        method: "PATCH",
        path: "/v1/attestation-packs/{id}",
        tag: "Packs",
        auth: "required",
        input: "body",
        summary: "Change a custom pack",
        description: "Send at least one field. Built-in templates are read-only: clone one instead.",
        problems: ["not_found", "pack_read_only"],
      },
    })
    .input(ZUpdatePackInput)
    .output(ZPackView)
    .mutation(({ ctx, input: { id, ...changes } }) => updatePack({ tenantId: ctx.principal.tenantId, id, input: requireAChange(changes) })),
  clone: scopedProcedure("packs:write")
    .meta({
      rest: {
        method: "POST",
        path: "/v1/attestation-packs/{id}/clone",
        tag: "Packs",
        auth: "required",
        input: "body",
        status: 201,
        summary: "Clone a pack into a custom pack",
        problems: ["not_found"],
      },
    })
    .input(ZClonePackInput)
    .output(ZPackView)
    .mutation(({ ctx, input }) => clonePack({ tenantId: ctx.principal.tenantId, id: input.id, name: input.name })),
});
