import "server-only";

/** A tlog-proof as a download: text, named `<id>.tlog-proof` (C2SP tlog-proof's file extension). */
export function tlogProofResponse(text: string, id: string): Response {
  return new Response(text, {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": `attachment; filename="${id}.tlog-proof"`,
      "cache-control": "no-store",
    },
  });
}
