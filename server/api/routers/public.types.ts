import { z } from "zod";
import { ZContentHashInput, ZId } from "../schemas/common";
import { ZIntParam } from "./query-params";
import { BADGE_THEMES } from "../../domain/badges";

export const ZPortfolioInput = z.object({
  id: ZId,
  limit: ZIntParam(1, 100).optional(),
  offset: ZIntParam(0, 100_000).optional(),
});

export const ZLookupInput = z.object({
  content_hash: ZContentHashInput,
  limit: ZIntParam(1, 100).optional(),
  offset: ZIntParam(0, 100_000).optional(),
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
