import "server-only";
import { getDb, isUniqueViolation, type Tx } from "../../db";
import { hashPassword } from "../../crypto/passwords";
import { createApiKey } from "./api-keys";
import { AppError } from "../../errors";
import { newId } from "../ids";
import type { Plan } from "../plans";
import { CONSUMER_SCOPES } from "@/lib/scopes";

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Inside a write transaction: a consumer's personal tenant and its one user, with a password
 * hash already made (hashing stays outside transactions: it takes tens of milliseconds).
 */
export async function insertConsumer(
  tx: Tx,
  opts: { email: string; passwordHash: string; name: string; plan: Plan; verifiedAt: Date | null; now: Date },
): Promise<{ userId: string; tenantId: string }> {
  const { now } = opts;
  const tenant = await tx.tenant.create({ data: { id: newId(), kind: "PERSONAL", name: opts.name, createdAt: now, updatedAt: now } });
  const user = await tx.user.create({
    data: {
      id: newId(),
      tenantId: tenant.id,
      email: normalizeEmail(opts.email),
      name: opts.name,
      passwordHash: opts.passwordHash,
      emailVerifiedAt: opts.verifiedAt,
      plan: opts.plan,
      createdAt: now,
      updatedAt: now,
    },
  });
  return { userId: user.id, tenantId: tenant.id };
}

/**
 * A consumer: a personal tenant and its one user. `verified` marks the e-mail as verified
 * (operators and tests; a sign-up makes its account only when its link is followed).
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
  const passwordHash = await hashPassword(opts.password);
  try {
    return await getDb().write(async (tx) => {
      const now = new Date();
      const ids = await insertConsumer(tx, { ...opts, passwordHash, verifiedAt: opts.verified ? now : null, now });
      const key = opts.withApiKey
        ? (await createApiKey({ tenantId: ids.tenantId, userId: ids.userId, name: "default", scopes: CONSUMER_SCOPES }, tx)).secret
        : undefined;
      return { ...ids, apiKey: key };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError("conflict", "An account with this e-mail already exists.");
    throw err;
  }
}
