import "server-only";
import { AppError } from "../errors";
import { parseJsonText } from "./json-text";

/** Largest request body any /v1 endpoint accepts. */
export const MAX_BODY_BYTES = 256 * 1024;
/** How much of an oversized body is read and discarded before the connection is dropped. */
const DRAIN_BYTES = 8 * 1024 * 1024;

/**
 * The client went away while sending its body (the read failed: the connection was reset or
 * closed). Nobody will see the answer; it is not the server's failure either, so it is not
 * logged as one.
 */
export class ClientClosedRequest extends Error {
  constructor(cause: unknown) {
    super("The client closed the connection before its request body arrived.", { cause });
    this.name = "ClientClosedRequest";
  }
}

async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>) {
  try {
    return await reader.read();
  } catch (err) {
    throw new ClientClosedRequest(err);
  }
}

function isJsonMediaType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Reads a body as UTF-8 text with a hard size cap (checked against Content-Length first, then
 * while streaming, so an oversized body is never buffered whole): 413 past `maxBytes`, 415
 * malformed_json when it is not UTF-8.
 */
export async function readBodyText(req: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  // `close`: the rest of the body stays unread, so the connection cannot carry another request
  // (a keep-alive client would send its next one into a stalled socket).
  const tooLarge = (close: boolean) =>
    new AppError("payload_too_large", `The body exceeds ${maxBytes} bytes.`, undefined, close ? { connection: "close" } : undefined);
  const declared = Number(req.headers.get("content-length") ?? NaN);
  // An unread body of declared length is discarded by the HTTP server itself; past the drain
  // allowance the connection is closed instead.
  if (declared > maxBytes) throw tooLarge(declared > maxBytes + DRAIN_BYTES);
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await readChunk(reader);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        // Read on without keeping anything, so the client gets the 413 once its upload ends
        // rather than a broken pipe, and the connection stays usable; give up past the allowance.
        for (;;) {
          const next = await readChunk(reader);
          if (next.done) throw tooLarge(false);
          total += next.value.byteLength;
          if (total > maxBytes + DRAIN_BYTES) {
            await reader.cancel();
            throw tooLarge(true);
          }
        }
      }
      chunks.push(value);
    }
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new AppError("malformed_json", "The body is not valid UTF-8.");
  }
}

/** Reads a JSON body (readBodyText's cap, then parseJsonText); not declared as JSON is 415. */
export async function readJsonBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  if (!isJsonMediaType(req.headers.get("content-type"))) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  return parseJsonText(await readBodyText(req, maxBytes));
}

/** Reads a text body (readBodyText's cap), whatever its declared type; not UTF-8 is 400 malformed_request. */
export async function readTextBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  try {
    return await readBodyText(req, maxBytes);
  } catch (err) {
    if (err instanceof AppError && err.code === "malformed_json") throw new AppError("malformed_request", "The body is not valid UTF-8.");
    throw err;
  }
}
