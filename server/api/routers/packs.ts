import "server-only";
import { clonePack, createPack, getPack, listPacks, updatePack } from "../../domain/packs";
import { router, scopedProcedure } from "../trpc";
import {
  ZClonePackInput,
  ZCreatePackInput,
  ZListPacksInput,
  ZPackIdInput,
  ZUpdatePackInput,
  ZClonePackBody,
  parseUpdateBody,
} from "./packs.types";
import { parseBody } from "./parse-body";

/** Verification packs (issue 5): built-in templates and the tenant's custom packs. */
export const packsRouter = router({
  list: scopedProcedure("packs:read")
    .input(ZListPacksInput)
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
    .input(ZPackIdInput)
    .query(({ ctx, input }) => getPack({ tenantId: ctx.principal.tenantId, id: input.id })),
  create: scopedProcedure("packs:write")
    .input(ZCreatePackInput)
    .mutation(({ ctx, input }) => createPack({ tenantId: ctx.principal.tenantId, input })),
  update: scopedProcedure("packs:write")
    .input(ZUpdatePackInput)
    .mutation(({ ctx, input }) => updatePack({ tenantId: ctx.principal.tenantId, id: input.id, input: parseUpdateBody(input.body) })),
  clone: scopedProcedure("packs:write")
    .input(ZClonePackInput)
    .mutation(({ ctx, input }) =>
      clonePack({ tenantId: ctx.principal.tenantId, id: input.id, name: parseBody(ZClonePackBody, input.body).name }),
    ),
});
