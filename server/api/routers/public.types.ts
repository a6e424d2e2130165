import { z } from "zod";
import { ZContentHashInput, ZId, ZPdqHashInput } from "../schemas/common";
import { ZIntParam } from "./query-params";
import { BADGE_THEMES } from "../../domain/protections";
import { PDQ_MATCH_DISTANCE } from "@/lib/fingerprint/pdq-index";

export const ZPortfolioInput = z.object({
  id: ZId,
  limit: ZIntParam(1, 100).optional(),
  offset: ZIntParam(0, 100_000).optional(),
});

export const ZLookupInput = z
  .object({
    content_hash: ZContentHashInput.optional().meta({ description: "The file's SHA-256: who protected these bytes." }),
    pdq: ZPdqHashInput.optional().meta({
      description: "A picture's PDQ hash (npm run fingerprint, or the pages): who protected a picture that looks like it.",
    }),
    max_distance: ZIntParam(0, PDQ_MATCH_DISTANCE)
      .optional()
      .meta({
        description: `With pdq: the largest Hamming distance that counts as similar, 0–${PDQ_MATCH_DISTANCE}; default ${PDQ_MATCH_DISTANCE}, the reference's advice.`,
      }),
    limit: ZIntParam(1, 100).optional(),
    offset: ZIntParam(0, 100_000).optional(),
  })
  .superRefine((q, ctx) => {
    if ((q.content_hash === undefined) === (q.pdq === undefined)) {
      ctx.addIssue({ code: "custom", path: ["content_hash"], message: "give exactly one of content_hash and pdq" });
    }
    if (q.max_distance !== undefined && q.pdq === undefined) {
      ctx.addIssue({ code: "custom", path: ["max_distance"], message: "max_distance goes with pdq" });
    }
  });

export const ZBadgeInput = z.object({
  id: ZId,
  theme: z.enum(BADGE_THEMES).optional().meta({ description: "light (default): for light pages; dark: for dark ones." }),
});

export const ZOEmbedInput = z.object({
  url: z.string().max(2048).meta({ description: "A share or verify URL of this deployment." }),
  format: z.string().max(64).optional().meta({ description: "json (the default); any other format is 501." }),
  maxwidth: ZIntParam(1, 100_000).optional(),
  maxheight: ZIntParam(1, 100_000).optional(),
});
