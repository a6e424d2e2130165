import "server-only";
import type { ApiKeyPrincipal } from "../domain/api-keys";

/**
 * Enforces a key's rate_limit_per_minute and daily_quota on a request it authenticates and
 * writes the RateLimit-Policy / RateLimit headers; implemented in the limits slice of issue 3.
 */
export async function enforceKeyLimits(principal: ApiKeyPrincipal, headers: Record<string, string>): Promise<void> {
  void principal;
  void headers;
}
