import { scalarBundle } from "./bundle";

/** Scalar's standalone API-reference bundle, from the installed package (see ../route.ts). */
export async function GET(): Promise<Response> {
  return new Response(new Uint8Array(scalarBundle()), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=31536000, immutable" },
  });
}
