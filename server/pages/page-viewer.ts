import "server-only";
import { TRPCError } from "@trpc/server";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { createContext } from "../api/context";
import { createCaller } from "../api/root";
import { AppError } from "../errors";
import type { SessionPrincipal } from "../domain/accounts";
import { sessionTokenFromCookieHeader } from "../auth/session-cookie";
import { sessionPrincipalOrNull } from "../auth/dashboard-principal";
import { getViewer, type Viewer } from "../domain/viewer";

/** The session of a server-rendered page's request, or null (no cookie, or an ended session). */
export async function pagePrincipal(): Promise<SessionPrincipal | null> {
  return sessionPrincipalOrNull(sessionTokenFromCookieHeader((await headers()).get("cookie")));
}

/** The signed-in user of a server-rendered page, or null. */
export async function currentViewer(): Promise<Viewer | null> {
  return getViewer(await pagePrincipal());
}

/** The signed-in user, else a redirect to the login page (back to `path` afterwards). */
export async function requireViewer(path: string, realm?: Viewer["realm"]): Promise<Viewer> {
  const viewer = await currentViewer();
  if (!viewer) redirect(`/login?next=${encodeURIComponent(path)}`);
  if (realm && viewer.realm !== realm) redirect(viewer.realm === "organization" ? "/console" : "/dashboard");
  return viewer;
}

/** A tRPC caller for a server component: the same procedures as /v1 and /api/trpc, as the page's session. */
export async function pageCaller() {
  return createCaller(createContext(await pagePrincipal(), await headers()));
}

/** Awaits a procedure call, turning its not-found (an unknown or another tenant's id) into the page's 404. */
export async function orNotFound<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    const cause = err instanceof TRPCError ? err.cause : err;
    if ((err instanceof TRPCError && err.code === "NOT_FOUND") || (cause instanceof AppError && cause.code === "not_found")) notFound();
    throw err;
  }
}
