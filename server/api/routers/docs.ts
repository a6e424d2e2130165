import "server-only";
import { z } from "zod";
import { getConfig } from "../../config";
import { publicProcedure, router } from "../trpc";

let document: Promise<Record<string, unknown>> | undefined;

/** The API's own description. */
export const docsRouter = router({
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
    // Built once per process (it depends on the code and the base URL only); imported lazily,
    // since the generator walks the router this procedure belongs to.
    .query(
      () => (document ??= import("../openapi").then((m) => m.openApiDocument(getConfig().baseUrl) as unknown as Record<string, unknown>)),
    ),
});
