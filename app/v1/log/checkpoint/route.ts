import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

/** The newest signed note, verbatim (C2SP tlog-checkpoint). */
export const GET = apiRoute({ auth: "optional" }, async ({ caller }) => {
  const note = await caller.log.checkpoint();
  return new Response(note, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
