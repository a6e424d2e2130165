import NextAuth from "next-auth";
import { getAuthOptions } from "@/server/auth/next-auth";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// The options are built per request (lazily, once): their secret derives from the master key.
const handler = (req: Request, ctx: Ctx) => NextAuth(req as never, ctx as never, getAuthOptions()) as Promise<Response>;

export { handler as GET, handler as POST };
