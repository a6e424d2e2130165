import { makeZip } from "client-zip";
import { consumerRouter } from "@/server/api/routers/consumer";
import { exportFiles } from "@/server/domain/protections";
import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

/** The export's files as zip entries, read one at a time as the archive is sent (client-zip streams). */
async function* entries(tenantId: string) {
  for await (const f of exportFiles(tenantId)) yield { name: f.name, input: f.data, lastModified: f.lastModified };
}

// The caller's protections and proofs as a zip, streamed (a consumer key or session).
export const GET = apiRoute(consumerRouter.export, (out) => ({
  body: makeZip(entries(out.tenant_id)),
  headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="${out.file_name}"` },
}));
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
