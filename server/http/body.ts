import "server-only";
import { AppError } from "../domain/errors";

/** Largest request body any /v1 endpoint accepts. */
export const MAX_BODY_BYTES = 256 * 1024;

function isJsonMediaType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Reads a JSON body with a hard size cap (checked against Content-Length first, then while
 * streaming, so an oversized body is never buffered whole). A body that is not declared or
 * not parseable as JSON is 415; an oversized one 413.
 */
export async function readJsonBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const tooLarge = () => new AppError("payload_too_large", `The body exceeds ${maxBytes} bytes.`);
  if (!isJsonMediaType(req.headers.get("content-type"))) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks)));
  } catch {
    throw new AppError("malformed_json", "The body is not valid UTF-8 JSON.");
  }
}
