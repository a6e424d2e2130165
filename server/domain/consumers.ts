import "server-only";
import { getDb, isUniqueViolation } from "../db";
import { hashPassword } from "../crypto/passwords";
import { createApiKey } from "./api-keys";
import { AppError } from "./errors";
import { newId } from "./ids";
import { CONSUMER_SCOPES } from "./scopes";

export const PLANS = ["free", "creator", "pro"] as const;
export type Plan = (typeof PLANS)[number];

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * A consumer: a personal tenant and its one user. `verified` marks the e-mail as verified
 * (operators and tests; sign-up leaves it unverified until the link is followed).
 * With `withApiKey`, also an API key holding the consumer scopes.
 */
export async function createConsumer(opts: {
  email: string;
  password: string;
  name: string;
  plan: Plan;
  verified: boolean;
  withApiKey?: boolean;
}): Promise<{ userId: string; tenantId: string; apiKey?: string }> {
  const email = normalizeEmail(opts.email);
  const passwordHash = await hashPassword(opts.password);
  try {
    return await getDb().write(async (tx) => {
      const now = new Date();
      const tenant = await tx.tenant.create({ data: { id: newId(), kind: "PERSONAL", name: opts.name, createdAt: now, updatedAt: now } });
      const user = await tx.user.create({
        data: {
          id: newId(),
          tenantId: tenant.id,
          email,
          name: opts.name,
          passwordHash,
          emailVerifiedAt: opts.verified ? now : null,
          plan: opts.plan,
          createdAt: now,
          updatedAt: now,
        },
      });
      const key = opts.withApiKey
        ? (await createApiKey({ tenantId: tenant.id, userId: user.id, name: "default", scopes: CONSUMER_SCOPES }, tx)).secret
        : undefined;
      return { userId: user.id, tenantId: tenant.id, apiKey: key };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("conflict", "An account with this e-mail already exists.");
    throw err;
  }
}
