import "server-only";
import type { RouteResult } from "./api-route";

/** A tlog-proof as a download: text, named `<id>.tlog-proof` (C2SP tlog-proof's file extension). */
export function tlogProofFile(text: string, req: Request): RouteResult {
  const id = new URL(req.url).pathname.split("/").at(-2)!;
  return { body: text, headers: { "content-disposition": `attachment; filename="${id}.tlog-proof"` } };
}
