import "server-only";
import { getDb } from "../db";
import { createApiKey } from "./api-keys";
import { newId } from "./ids";
import { ORGANIZATION_SCOPES } from "./scopes";

/** Creates an organisation and its first API key, which holds every scope. */
export async function createOrganization({ name }: { name: string }) {
  return getDb().write(async (tx) => {
    const now = new Date();
    const tenant = await tx.tenant.create({
      data: { id: newId(), kind: "ORGANIZATION", name, createdAt: now, updatedAt: now },
    });
    const { secret } = await createApiKey(
      { tenantId: tenant.id, name: "bootstrap", scopes: ORGANIZATION_SCOPES, rateLimitPerMinute: 100_000, dailyQuota: 10_000_000 },
      tx,
    );
    return { tenantId: tenant.id, apiKey: secret };
  });
}
