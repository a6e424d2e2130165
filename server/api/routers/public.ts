import "server-only";
import { z } from "zod";
import { ZCertificate, ZLookup, ZOEmbed, ZPortfolio, ZPublicProtection } from "../schemas/protections";
import { ZProofBundle } from "../schemas/attestations";
import { toTlogProof, WITNESSED_HEADER } from "../../domain/public-log";
import { proofOptions } from "../proof-options";
import { getPortfolio, getPublicProofBundle, getPublicProtection } from "../../domain/protections";
import { publicProcedure, router } from "../trpc";
import { ZBadgeInput, ZLookupInput, ZOEmbedInput, ZPortfolioInput } from "./public.types";
import { oembedOf } from "../../domain/protections";
import { protectionBadge } from "../../domain/protections";
import { lookupContentHash } from "../../domain/protections";
import { lookupSimilar } from "../../domain/protections";
import { PDQ_MATCH_DISTANCE } from "@/lib/fingerprint/pdq-index";
import { getCertificate } from "../../domain/protections";
import { consumeEndpointLimits } from "../../limits/client-limits";
import { getConfig } from "../../config";
import { ZIdInput, ZProofInput } from "../schemas/common";
import { callerOf } from "../context";

/** Lookups per minute, per client address and per account (HALLMARK_LOOKUPS_PER_MINUTE, default 120). */
const lookupLimit = () => ({ name: "lookup", quota: getConfig().lookupsPerMinute, window: 60 });
/** Certificates per minute, per client address and per account (each is drawn anew, dear in CPU: docs/performance.md, "Public reads, certificates and the export"); HALLMARK_CERTIFICATES_PER_MINUTE, default 60. */
const certificateLimit = () => ({ name: "certificate", quota: getConfig().certificatesPerMinute, window: 60 });

/** What visitors see without an account: verify and share pages, portfolios, who protected a file. */
export const publicRouter = router({
  lookup: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/lookup",
        tag: "Public protections",
        auth: "optional",
        input: "query",
        summary: "Who protected a file, or a picture like it",
        description:
          "With `content_hash`: every public protection of the bytes whose SHA-256 it is, in log order (the first claim first). " +
          "With `pdq` (a PDQ hash, as `npm run fingerprint` and the pages compute it): every public protection whose picture's PDQ hash is within `max_distance` (default and maximum 31), nearest first, then oldest, each with its `distance`; a similar picture is not proof of copying. " +
          "Public protections only: a private protection is its owner's alone, and the answer (its body, its status, its timing) is the same whether or not one exists. " +
          "Limited per client address, and per account for a caller with a key or a session (120 a minute each unless the operator set otherwise; the RateLimit headers state them); a key also spends its own limits.",
        problems: ["rate_limited"],
      },
    })
    .input(ZLookupInput)
    .output(ZLookup)
    .query(async ({ ctx, input }) => {
      await consumeEndpointLimits(lookupLimit(), callerOf(ctx), ctx.responseHeaders);
      const page = { limit: input.limit ?? 100, offset: input.offset ?? 0 };
      if (input.pdq !== undefined) return lookupSimilar({ pdq: input.pdq, maxDistance: input.max_distance ?? PDQ_MATCH_DISTANCE, ...page });
      return lookupContentHash({ contentHash: input.content_hash!, ...page });
    }),
  protection: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/protections/{id}",
        tag: "Public protections",
        auth: "optional",
        summary: "A protection as a verify link shows it",
        description:
          "A public protection to anyone; a private one only to its owner (a session or key of its account), and to anyone else 404 as for an unknown id.",
        problems: ["not_found"],
      },
    })
    .input(ZIdInput)
    .output(ZPublicProtection)
    .query(({ ctx, input }) => getPublicProtection({ id: input.id, viewer: ctx.principal })),
  proofBundle: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/protections/{id}/proof-bundle",
        tag: "Public protections",
        auth: "optional",
        summary: "A protection's proof bundle",
        input: "query",
        problems: ["not_found", "not_yet_witnessed"],
        responseHeaders: [WITNESSED_HEADER],
      },
    })
    .input(ZProofInput)
    .output(ZProofBundle)
    .query(({ ctx, input }) => getPublicProofBundle({ id: input.id, viewer: ctx.principal }, proofOptions(ctx, input))),
  tlogProof: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/protections/{id}/tlog-proof",
        tag: "Public protections",
        auth: "optional",
        produces: "text/plain",
        input: "query",
        summary: "A protection's C2SP tlog-proof",
        problems: ["not_found", "not_yet_witnessed"],
        responseHeaders: [{ name: "Content-Disposition", description: "attachment; the file name is <id>.tlog-proof" }, WITNESSED_HEADER],
      },
    })
    .input(ZProofInput)
    .output(z.string())
    .query(async ({ ctx, input }) =>
      toTlogProof(await getPublicProofBundle({ id: input.id, viewer: ctx.principal }, proofOptions(ctx, input))),
    ),
  certificate: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/protections/{id}/certificate.pdf",
        tag: "Public protections",
        auth: "optional",
        produces: "application/pdf",
        summary: "A protection's certificate, carrying its own proof",
        description:
          "A PDF/A-3 certificate (a private protection's for its owner only): the work and its creator, the SHA-256, time, log index, issuer and key, the checkpoint and its witnesses, a QR code of the verify URL and how to check it without Hallmark. " +
          "The proof bundle (proof-bundle.json) and the C2SP tlog-proof (<id>.tlog-proof) are embedded as file attachments, so the PDF verifies by itself: `npm run verify -- certificate.pdf --log-key log.pem`. " +
          "Through tRPC the procedure answers the facts and proofs the PDF is drawn from. " +
          "Limited per client address, and per account for a caller with a key or a session (60 a minute each unless the operator set otherwise; the RateLimit headers state them); a key also spends its own limits.",
        input: "query",
        problems: ["not_found", "rate_limited", "not_yet_witnessed"],
        responseHeaders: [
          { name: "Content-Disposition", description: "attachment; the file name is hallmark-certificate-<id>.pdf" },
          WITNESSED_HEADER,
        ],
      },
    })
    .input(ZProofInput)
    .output(ZCertificate)
    .query(async ({ ctx, input }) => {
      await consumeEndpointLimits(certificateLimit(), callerOf(ctx), ctx.responseHeaders);
      return getCertificate({ id: input.id, viewer: ctx.principal }, proofOptions(ctx, input));
    }),
  badge: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/protections/{id}/badge.svg",
        tag: "Public protections",
        auth: "optional",
        input: "query",
        produces: "image/svg+xml",
        summary: "A protection's badge",
        description:
          "An SVG badge, “Protected | <date> · Hallmark”, linking to the verify page, for a light page (theme=light, the default) or a dark one. Embed it inside a link to the verify URL.",
        problems: ["not_found"],
        responseHeaders: [{ name: "Cache-Control", description: "public, max-age=86400: a badge never changes" }],
      },
    })
    .input(ZBadgeInput)
    .output(z.string())
    .query(({ input }) => protectionBadge({ id: input.id, theme: input.theme ?? "light" })),
  oembed: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/oembed",
        tag: "Public protections",
        auth: "optional",
        input: "query",
        summary: "oEmbed for share and verify links",
        description:
          'oEmbed 1.0 (https://oembed.com): a rich embed, the protection\'s badge linking to its verify page, with the page\'s Open Graph image as the thumbnail. Share and verify pages name it in a <link rel="alternate" type="application/json+oembed">.',
        problems: ["not_found", "format_not_implemented"],
      },
    })
    .input(ZOEmbedInput)
    .output(ZOEmbed)
    .query(({ input }) => oembedOf(input)),
  portfolio: publicProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/v1/portfolios/{id}",
        tag: "Public protections",
        auth: "optional",
        input: "query",
        summary: "A creator's public portfolio",
        description: "Public protections of one creator, newest first.",
        problems: ["not_found"],
      },
    })
    .input(ZPortfolioInput)
    .output(ZPortfolio)
    .query(({ input }) => getPortfolio({ userId: input.id, limit: input.limit ?? 24, offset: input.offset ?? 0 })),
});
