import "server-only";
import { checkLogin } from "../domain/accounts";
import { createSession } from "./sessions";

/**
 * A login, the same for POST /v1/consumer/login and the dashboard's sign-in: the account's rules
 * (throttles, password, a confirmed address; domain/accounts/login.ts checkLogin), then a session.
 */
export async function login(input: { email: string; password: string; client: string; userAgent?: string | null }) {
  const { account, user } = await checkLogin(input);
  const { sid, token } = await createSession(account, { userAgent: input.userAgent, clientAddress: input.client });
  return { session_token: token, sid, user };
}
