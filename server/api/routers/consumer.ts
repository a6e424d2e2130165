import "server-only";
import { z } from "zod";
import { ZProtectionItem, ZProtectionRecord, ZProtectionsPage } from "../schemas/protections";
import { ZProofBundle } from "../schemas/attestations";
import { ZUsage } from "../schemas/accounts";
import { parseIdempotencyKey, requestHashOf } from "../../domain/idempotency";
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from "../schemas/idempotency";
import { getProtectionProofBundle, listProtections, setProtectionVisibility } from "../../domain/protections";
import { consumerOf, mintProtection } from "../../domain/protections";
import { getUsage } from "../../domain/plans";
import { router, scopedProcedure } from "../trpc";
import { consumeEndpointLimits } from "../../limits/client-limits";
import { getConfig } from "../../config";
import { callerOf } from "../context";
import { ZListProtectionsInput, ZMintBody, ZSetVisibilityInput } from "./consumer.types";
import { ZProofInput, ZUuid, ZWitnessedParam } from "../schemas/common";
import { WITNESSED_HEADER } from "../../domain/public-log";
import { awaitAccountWitnessed } from "../../domain/protections";
import { proofOptions } from "../proof-options";

const ZExportInput = z.object({ witnessed: ZWitnessedParam });

/** Mint, protections, their visibility and usage. */
export const consumerRouter = router({
  /**
   * Answers the protection and whether it is the first answer replayed for the request's
   * Idempotency-Key (the same key with the same body, normalised, within 24 hours).
   */
  mint: scopedProcedure("protections:write")
    .meta({
      rest: {
        method: "POST",
        path: "/v1/consumer/mint",
        tag: "Consumer",
        auth: "required",
        input: "body",
        status: 201,
        summary: "Protect a file: mint an attestation of its SHA-256",
        description:
          "The browser hashes the file; only the hash and the metadata given are sent. Answered once the attestation is in a committed checkpoint. With an Idempotency-Key, a retry of the same request answers the first result (Idempotent-Replayed: true) and never mints twice.",
        problems: ["quota_exceeded", "idempotency_key_reused", "invalid_parameter"],
        headers: [IDEMPOTENCY_HEADER],
        responseHeaders: [REPLAYED_HEADER],
        response: ZProtectionRecord,
      },
    })
    .input(ZMintBody)
    .output(z.object({ protection: ZProtectionRecord, replayed: z.boolean() }))
    .mutation(({ ctx, input }) => {
      const key = parseIdempotencyKey(ctx.idempotencyKey);
      return mintProtection({
        tenantId: ctx.principal.tenantId,
        input,
        idempotency: key === null ? undefined : { key, requestHash: requestHashOf(input) },
      });
    }),
  protections: scopedProcedure("protections:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/consumer/protections",
        tag: "Consumer",
        auth: "required",
        input: "query",
        summary: "List the account's protections",
        description: "Newest first, in pages: pass the answer's next_cursor as cursor for the next page.",
      },
    })
    .input(ZListProtectionsInput)
    .output(ZProtectionsPage)
    .query(({ ctx, input }) =>
      listProtections({
        tenantId: ctx.principal.tenantId,
        limit: input.limit ?? 20,
        cursor: input.cursor,
        filter: { category: input.category, visibility: input.visibility },
      }),
    ),
  setVisibility: scopedProcedure("protections:write")
    .meta({
      rest: {
        method: "PATCH",
        path: "/v1/consumer/protections/{id}",
        tag: "Consumer",
        auth: "required",
        input: "body",
        summary: "Make a protection public or private",
        description:
          "Public: its verify and share pages show the work, its portfolio lists it, and its proof carries the opening of its sealed log entry. Private: from now on only the account sees them (what was public may have been copied). " +
          "A protection minted private is logged sealed; one minted public is logged in the open and stays readable in the log if made private later (`sealed` is absent then). " +
          "From a session, making a private protection public needs `password` (the account's current password): missing is 422 at /password, wrong is 403 `wrong_password` (at most 5 wrong ones per account per 15 minutes, then 429 `too_many_attempts`); a key with `protections:write` needs none. A change that finds the visibility changed since it was read is 409 `conflict`.",
        problems: ["not_found", "wrong_password", "too_many_attempts", "conflict"],
      },
    })
    .input(ZSetVisibilityInput)
    .output(ZProtectionItem)
    .mutation(({ ctx, input }) =>
      setProtectionVisibility({
        tenantId: ctx.principal.tenantId,
        id: input.id,
        visibility: input.visibility,
        session: ctx.principal.kind === "session" ? { userId: ctx.principal.userId, password: input.password } : undefined,
      }),
    ),
  /** The proof bundle of a protection's attestation, for offline verification. */
  proofBundle: scopedProcedure("protections:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/consumer/protections/{id}/proof-bundle",
        tag: "Consumer",
        auth: "required",
        summary: "A protection's proof bundle",
        input: "query",
        problems: ["not_found", "not_yet_witnessed"],
        responseHeaders: [WITNESSED_HEADER],
      },
    })
    .input(ZProofInput)
    .output(ZProofBundle)
    .query(({ ctx, input }) => getProtectionProofBundle({ tenantId: ctx.principal.tenantId, id: input.id }, proofOptions(ctx, input))),
  /**
   * What the export route streams: the account whose files go in (server/domain/protections/export.ts) and
   * the archive's name. The route's edge zips exportFiles(tenant_id) as it is read.
   */
  export: scopedProcedure("protections:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/consumer/export",
        tag: "Consumer",
        auth: "required",
        produces: "application/zip",
        summary: "Take your proofs with you: every protection with its proofs, as a zip",
        description:
          "Streams a zip: for each protection its JSON, proof bundle and C2SP tlog-proof, plus the log's public key, verifier key and policy, and a README saying how to check them offline. " +
          "Each protection's certificate is drawn for it, so exports are limited per account and per client address (10 an hour each unless the operator set otherwise; the RateLimit headers state them).",
        input: "query",
        problems: ["rate_limited", "not_yet_witnessed"],
        responseHeaders: [{ name: "Content-Disposition", description: "attachment; the file name is hallmark-export-<date>.zip" }],
      },
    })
    .input(ZExportInput)
    .output(z.object({ tenant_id: ZUuid, file_name: z.string() }))
    .query(async ({ ctx, input }) => {
      await consumerOf(ctx.principal.tenantId);
      // Before the budget is spent: a refusal to wait for the witnesses costs the caller nothing.
      if ((input.witnessed ?? "required") === "required") await awaitAccountWitnessed(ctx.principal.tenantId);
      await consumeEndpointLimits({ name: "export", quota: getConfig().exportsPerHour, window: 3600 }, callerOf(ctx), ctx.responseHeaders);
      return { tenant_id: ctx.principal.tenantId, file_name: `hallmark-export-${new Date().toISOString().slice(0, 10)}.zip` };
    }),
  usage: scopedProcedure("protections:read")
    .meta({
      rest: {
        method: "GET",
        path: "/v1/consumer/usage",
        tag: "Consumer",
        auth: "required",
        summary: "The account's plan and this month's protections",
      },
    })
    .output(ZUsage)
    .query(async ({ ctx }) => getUsage(await consumerOf(ctx.principal.tenantId))),
});
