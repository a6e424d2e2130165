import "server-only";
import { getDb, isUniqueViolation } from "../../db";
import { hashPassword } from "../../crypto/passwords";
import { createApiKey } from "./api-keys";
import { normalizeEmail } from "./consumers";
import { AppError } from "../../errors";
import { newId } from "../ids";
import { ORGANIZATION_SCOPES } from "@/lib/scopes";

/** The person who signs in to an organisation's console (e-mail verified by the operator). */
export interface OrganizationOwner {
  email: string;
  password: string;
  name: string;
}

/**
 * Creates an organisation and its first API key, which holds every scope; with `owner`, also
 * the user who signs in to its console with e-mail and password.
 */
export async function createOrganization({ name, owner }: { name: string; owner?: OrganizationOwner }) {
  const passwordHash = owner ? await hashPassword(owner.password) : null;
  try {
    return await getDb().write(async (tx) => {
      const now = new Date();
      const tenant = await tx.tenant.create({
        data: { id: newId(), kind: "ORGANIZATION", name, createdAt: now, updatedAt: now },
      });
      const ownerId = owner ? newId() : null;
      if (owner && ownerId) {
        await tx.user.create({
          data: {
            id: ownerId,
            tenantId: tenant.id,
            email: normalizeEmail(owner.email),
            name: owner.name,
            passwordHash,
            emailVerifiedAt: now,
            createdAt: now,
            updatedAt: now,
          },
        });
      }
      const { secret } = await createApiKey(
        { tenantId: tenant.id, name: "bootstrap", scopes: ORGANIZATION_SCOPES, rateLimitPerMinute: 100_000, dailyQuota: 10_000_000 },
        tx,
      );
      return { tenantId: tenant.id, apiKey: secret, ownerId };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("conflict", "An account with this e-mail already exists.");
    throw err;
  }
}
