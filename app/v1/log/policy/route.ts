import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";

/** A C2SP tlog-policy naming this log's key, its witnesses and their quorum, for a verifier to pin. */
export const GET = apiRoute({ auth: "optional" }, async ({ caller }) => {
  const text = await caller.log.policy();
  return new Response(text, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=60" } });
});
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
