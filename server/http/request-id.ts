import "server-only";
import crypto from "node:crypto";

/**
 * The request's id: the X-Request-Id that scripts/serve.mjs gave it (and sends back on the
 * answer), or a new one where no server set it (a handler called directly).
 */
export const requestIdOf = (req: Request): string => req.headers.get("x-request-id") ?? crypto.randomUUID();
