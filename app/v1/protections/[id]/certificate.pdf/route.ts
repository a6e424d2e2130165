import { publicRouter } from "@/server/api/routers/public";
import { certificateFileName } from "@/server/domain/protections";
import { cachedCertificatePdf } from "@/server/domain/protections";
import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

// Public: a protection's PDF certificate with its proofs attached. Not cached by clients (each one
// carries the newest checkpoint); drawn once per distinct data while the process keeps it.
export const GET = apiRoute(publicRouter.certificate, async (certificate) => ({
  body: await cachedCertificatePdf(certificate),
  headers: {
    "content-type": "application/pdf",
    "content-disposition": `attachment; filename="${certificateFileName(certificate.protection.protection_id)}"`,
  },
}));
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
