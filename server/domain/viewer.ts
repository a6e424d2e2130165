import "server-only";
import { getDb } from "../db";
import { realmOfTenantKind } from "./accounts";
import type { Principal } from "./accounts";
import { portfolioUrlOf } from "./protections";

/** The signed-in user as the dashboard shows them, or null for a visitor. */
export async function getViewer(principal: Principal | null) {
  if (!principal || principal.kind !== "session") return null;
  const user = await getDb().read.user.findUnique({
    where: { id: principal.userId },
    select: { id: true, email: true, name: true, plan: true, tenant: { select: { id: true, name: true, kind: true } } },
  });
  if (!user) return null;
  const realm = realmOfTenantKind(user.tenant.kind);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    realm,
    plan: realm === "consumer" ? user.plan : null,
    tenant: user.tenant,
    portfolio_url: realm === "consumer" ? portfolioUrlOf(user.id) : null,
    scopes: [...principal.scopes],
  };
}

export type Viewer = NonNullable<Awaited<ReturnType<typeof getViewer>>>;
