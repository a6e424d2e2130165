import "server-only";
import type { ProofOptions } from "../domain/public-log";
import type { Context } from "./context";

/** A proof request's options: what ?witnessed= asked, and the answer's headers to say what it got. */
export const proofOptions = (ctx: Context, input: { witnessed?: "required" | "optional" }): ProofOptions => ({
  witnessed: input.witnessed ?? "required",
  responseHeaders: ctx.responseHeaders,
});
