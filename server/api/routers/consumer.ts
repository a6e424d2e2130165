import "server-only";
import { router } from "../trpc";

/** Mint, protections and usage (issue 3, protections slice). */
export const consumerRouter = router({});
