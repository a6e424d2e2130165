// The C2PA reader's WebAssembly (@contentauth/c2pa-web, MIT), served from this origin so the
// pages' Content Security Policy ('self', 'wasm-unsafe-eval') lets them load it; fetched only
// when a visitor drops a file. The name carries the package's version, so it is cached for good.
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { C2PA_WASM_FILE } from "@/app/_components/c2pa-version";

const WASM = path.join(process.cwd(), "node_modules/@contentauth/c2pa-web/dist/resources/c2pa_bg.wasm");

export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  if ((await params).file !== C2PA_WASM_FILE)
    return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain" } });
  const { size } = await fs.promises.stat(WASM);
  return new Response(Readable.toWeb(fs.createReadStream(WASM)) as ReadableStream<Uint8Array>, {
    headers: { "content-type": "application/wasm", "content-length": String(size), "cache-control": "public, max-age=31536000, immutable" },
  });
}
