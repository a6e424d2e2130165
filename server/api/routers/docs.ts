import "server-only";
import type { AnyRouter } from "@trpc/server";
import { z } from "zod";
import { getConfig } from "../../config";
import { publicProcedure, router } from "../trpc";

/**
 * The API's own description, generated from `api()`: the router this one is mounted in, which
 * hands itself in (the document walks every procedure, this one's too, so it cannot be imported).
 */
export function docsRouter(api: () => AnyRouter) {
  let document: Promise<Record<string, unknown>> | undefined;
  return router({
    openapi: publicProcedure
      .meta({
        rest: {
          method: "GET",
          path: "/v1/openapi.json",
          tag: "Reference",
          auth: "optional",
          summary: "This OpenAPI 3.1 document",
          description: "Generated from the schemas that validate every request and answer. Browse it at /docs.",
        },
      })
      .output(z.record(z.string(), z.unknown()))
      // Built once per process (it depends on the code and the base URL only), its generator
      // imported when first asked for.
      .query(
        () =>
          (document ??= import("../openapi").then(
            (m) => m.openApiDocument(api(), getConfig().baseUrl) as unknown as Record<string, unknown>,
          )),
      ),
  });
}
