import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuthOptions } from "next-auth";
import type { JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { sameOriginPath } from "@/lib/same-origin-path";
import { getConfig } from "../config";
import { ZLoginInput } from "./login-input";
import { realmOfTenantKind } from "../domain/accounts";
import { login } from "./login";
import { AppError } from "../errors";
import { liveSession, SESSION_MAX_AGE, sessionSecret } from "./sessions";
import { secureCookies } from "./session-cookie";
import { clientAddress } from "./request-address";

let options: AuthOptions | undefined;

/**
 * The refusal of the login being handled, other than wrong credentials: next-auth would answer
 * it as a 401 naming only its code, so its status and headers (429 with Retry-After, 503) would
 * never reach the login form.
 */
const loginRefusal = new AsyncLocalStorage<{ error?: AppError }>();

/**
 * Runs next-auth's handler for one request; a login it refused for a reason other than the
 * credentials is answered by `refuse` with that AppError instead (the route's problem+json).
 */
export async function withLoginRefusals(handle: () => Promise<Response>, refuse: (err: AppError) => Response): Promise<Response> {
  const slot: { error?: AppError } = {};
  const res = await loginRefusal.run(slot, handle);
  return slot.error ? refuse(slot.error) : res;
}

/**
 * next-auth's configuration for app/api/auth/[...nextauth] (the dashboard, a later issue):
 * the same secret, cookie and lifetime as POST /v1/consumer/login, a Credentials provider
 * calling the same domain `login` (throttling included), JWT sessions carrying `sub` and
 * `sid`. Built on first use, never at build time (the secret comes from the master key).
 */
export function getAuthOptions(): AuthOptions {
  if (options) return options;
  const { baseUrl } = getConfig();
  process.env.NEXTAUTH_URL ??= `${baseUrl}/api/auth`;
  options = {
    secret: sessionSecret(),
    useSecureCookies: secureCookies(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE },
    jwt: { maxAge: SESSION_MAX_AGE },
    providers: [
      CredentialsProvider({
        name: "E-mail and password",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const parsed = ZLoginInput.safeParse({ email: credentials?.email, password: credentials?.password });
          if (!parsed.success) return null;
          const headers = new Headers(Object.entries(req?.headers ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
          try {
            const { sid, user } = await login({ ...parsed.data, client: clientAddress(headers), userAgent: headers.get("user-agent") });
            return { id: user.id, email: user.email, name: user.name, sid, realm: user.realm };
          } catch (err) {
            // next-auth shows the message as ?error=…: the stable code only. The route answers
            // the AppError itself (withLoginRefusals), with its status and Retry-After.
            if (err instanceof AppError && err.code !== "invalid_credentials") {
              const slot = loginRefusal.getStore();
              if (slot) slot.error = err;
              throw new Error(err.code);
            }
            return null;
          }
        },
      }),
    ],
    // next-auth never shows a page of its own: the app's login page handles every outcome.
    pages: { signIn: "/login", error: "/login" },
    callbacks: {
      // A callbackUrl elsewhere (or malformed: "NaN", "javascript:…") lands on the home page.
      async redirect({ url, baseUrl: origin }) {
        return origin + sameOriginPath(url, origin, "/");
      },
      async jwt({ token, user }) {
        if (user) return { ...token, sub: user.id, sid: (user as { sid?: string }).sid, realm: (user as { realm?: string }).realm };
        // Every later use re-checks the Session row: a logout anywhere ends the dashboard session too.
        const sid = typeof token.sid === "string" ? token.sid : null;
        const live = sid && token.sub ? await liveSession({ sub: token.sub, sid, email: "", name: "" }) : null;
        return live ? token : ({} as JWT);
      },
      async session({ session, token }) {
        if (!token.sub) return { expires: session.expires };
        return {
          ...session,
          user: { ...session.user, id: token.sub, realm: realmOfTenantKind(token.realm === "organization" ? "ORGANIZATION" : "PERSONAL") },
        };
      },
    },
  };
  return options;
}
