import "server-only";
import argon2 from "argon2";

/**
 * Argon2id with OWASP's recommended parameters (19 MiB, 2 passes, 1 lane). The encoded hash
 * carries its parameters, so they can be raised later without invalidating stored hashes.
 */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

let dummy: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (unknown e-mail, or an account
 * without a password) it still spends the time of one verification, so the answer's timing
 * does not tell whether the account exists.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummy ??= hashPassword("hallmark-timing-equaliser");
    await argon2.verify(await dummy, password).catch(() => false);
    return false;
  }
  return argon2.verify(hash, password).catch(() => false);
}
