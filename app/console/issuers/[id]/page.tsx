import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { createCaller } from "@/server/api/root";
import { requireViewer } from "@/server/auth/page-viewer";
import { AppError } from "@/server/domain/errors";
import { authenticateSessionToken, SESSION_COOKIE } from "@/server/domain/sessions";
import { IssuerDetail } from "./issuer-detail";

export const metadata: Metadata = { title: "Issuer · Console" };

/** The issuer through the same procedure the dashboard calls (issuers.get), for the signed-in owner. */
async function loadIssuer(id: string) {
  const store = await cookies();
  const token = store.get(`__Secure-${SESSION_COOKIE}`)?.value ?? store.get(SESSION_COOKIE)?.value;
  const principal = token ? await authenticateSessionToken(token) : null;
  try {
    return await createCaller({ principal }).issuers.get({ id });
  } catch (err) {
    // The domain's AppError reaches a server-side caller wrapped in a TRPCError.
    const cause = err instanceof TRPCError ? err.cause : err;
    if ((err instanceof TRPCError && err.code === "NOT_FOUND") || (cause instanceof AppError && cause.code === "not_found")) notFound();
    throw err;
  }
}

export default async function ConsoleIssuerPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ created?: string }> }) {
  const { id } = await params;
  const { created } = await searchParams;
  const viewer = await requireViewer(`/console/issuers/${encodeURIComponent(id)}`, "organization");
  const issuer = await loadIssuer(id);
  return (
    <IssuerDetail
      initial={issuer}
      orgName={viewer.tenant.name}
      canRotate={viewer.scopes.includes("issuers:write")}
      justCreated={created === "1"}
    />
  );
}
