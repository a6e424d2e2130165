import { z } from "zod";
import { PLANS } from "../../domain/consumers";
import { SCOPES } from "../../domain/scopes";
import { ZCount, ZDateTime, ZUuid } from "./common";

/** Answers about API keys, consumer accounts and sessions. */

export const ZApiKey = z
  .object({
    id: ZUuid,
    name: z.string(),
    prefix: z.string().meta({ description: "The visible start of the key; the secret is never shown again." }),
    status: z.enum(["ACTIVE", "REVOKED"]),
    scopes: z.array(z.enum(SCOPES)),
    daily_quota: ZCount,
    rate_limit_per_minute: ZCount,
    created_at: ZDateTime,
  })
  .meta({ id: "ApiKey" });

export const ZApiKeyCreated = ZApiKey.extend({
  key: z.string().meta({ description: "The secret: shown in this answer only." }),
}).meta({ id: "ApiKeyCreated" });

export const ZRevokedApiKey = z.object({ id: ZUuid, status: z.literal("REVOKED") }).meta({ id: "RevokedApiKey" });

export const ZConsumerUser = z
  .object({ id: ZUuid, email: z.string(), name: z.string(), realm: z.enum(["consumer", "organization"]) })
  .meta({ id: "ConsumerUser" });

export const ZLoginResult = z
  .object({ session_token: z.string().meta({ description: "Send as Authorization: Bearer <session_token>." }), user: ZConsumerUser })
  .meta({ id: "LoginResult" });

export const ZVerificationSent = z.object({ status: z.literal("verification_sent"), email: z.string() }).meta({ id: "VerificationSent" });
export const ZEmailVerified = z.object({ status: z.literal("verified"), email: z.string() }).meta({ id: "EmailVerified" });
export const ZLoggedOut = z.object({ status: z.literal("logged_out") }).meta({ id: "LoggedOut" });

export const ZUsage = z
  .object({
    plan: z.enum(PLANS),
    month: z.string().meta({ description: "YYYY-MM (UTC)." }),
    used: ZCount,
    limit: ZCount.nullable().meta({ description: "null: unlimited." }),
    remaining: ZCount.nullable(),
    resets_at: ZDateTime,
  })
  .meta({ id: "Usage" });

/** Who is signed in to the dashboard (null for a visitor). */
export const ZViewer = z
  .object({
    id: ZUuid,
    email: z.string(),
    name: z.string(),
    realm: z.enum(["consumer", "organization"]),
    plan: z.string().nullable(),
    tenant: z.object({ id: ZUuid, name: z.string(), kind: z.string() }),
    portfolio_url: z.url().nullable(),
    scopes: z.array(z.enum(SCOPES)),
  })
  .nullable();
