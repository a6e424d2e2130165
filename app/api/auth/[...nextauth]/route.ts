import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { getAuthOptions, withLoginRefusals } from "@/server/auth/next-auth";
import { screenAuthRequest } from "@/server/http/auth-request";
import { errorToResponse } from "@/server/http/errors";
import { otherMethods } from "@/server/http/method-not-allowed";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// The options are built per request (lazily, once): their secret derives from the master key.
// A login refused for a reason other than wrong credentials (429 with Retry-After, 503) is
// answered as problem+json with its own status, as /v1 answers it.
const handler = async (raw: NextRequest, ctx: Ctx): Promise<Response> => {
  try {
    const req = await screenAuthRequest(raw, (await ctx.params).nextauth.join("/"));
    return await withLoginRefusals(
      async () => (await NextAuth(req as never, ctx as never, getAuthOptions())) as Response,
      (refusal) => errorToResponse(refusal, "body", raw),
    );
  } catch (err) {
    return errorToResponse(err, "body", raw);
  }
};

export { handler as GET, handler as POST };
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
