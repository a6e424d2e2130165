import { z } from "zod";
import { PLANS } from "../../domain/plans";
import { SCOPES } from "../../domain/accounts";
import { ZCount, ZDateTime, ZUuid } from "./common";

/** Answers about API keys, consumer accounts and sessions. */

export const ZApiKey = z
  .object({
    id: ZUuid,
    name: z.string(),
    prefix: z.string().meta({ description: "The visible start of the key; the secret is never shown again." }),
    status: z.enum(["ACTIVE", "REVOKED"]),
    scopes: z.array(z.enum(SCOPES)),
    daily_quota: ZCount.meta({
      description: "Requests per UTC day, as spent: what the key was given, within what its account's plan allows one key.",
    }),
    rate_limit_per_minute: ZCount.meta({
      description: "Requests per minute, as spent: what the key was given, within what its account's plan allows one key.",
    }),
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

export const ZPasswordResetSent = z.object({ status: z.literal("reset_sent"), email: z.string() }).meta({ id: "PasswordResetSent" });
export const ZPasswordReset = z
  .object({
    status: z.literal("password_reset"),
    email: z.string(),
    sessions_ended: ZCount.meta({ description: "Sessions ended by the reset: every one of the account." }),
    api_keys_revoked: ZCount.meta({ description: "API keys revoked by the reset: every active one of the account." }),
  })
  .meta({ id: "PasswordReset" });

export const ZResetKeys = z
  .object({
    items: z.array(z.object({ name: z.string(), prefix: z.string(), created_at: ZDateTime }).meta({ id: "ResetKey" })),
    total: ZCount,
  })
  .meta({ id: "ResetKeys", description: "The active API keys a reset with this link would revoke, newest first." });

export const ZAccount = z
  .object({
    id: ZUuid,
    email: z.string(),
    name: z.string(),
    realm: z.enum(["consumer", "organization"]),
    plan: z.enum(PLANS).nullable().meta({ description: "A consumer's plan; null for an organisation's owner." }),
    created_at: ZDateTime,
  })
  .meta({ id: "Account" });

export const ZPasswordChanged = z
  .object({
    status: z.literal("password_changed"),
    sessions_ended: ZCount.meta({ description: "Other sessions ended by the change." }),
    api_keys_revoked: ZCount.meta({ description: "API keys revoked with the change (revoke_api_keys); else 0." }),
  })
  .meta({ id: "PasswordChanged" });

export const ZEmailChangeSent = z
  .object({ status: z.literal("confirmation_sent"), email: z.string().meta({ description: "The new address, where the link was sent." }) })
  .meta({ id: "EmailChangeSent" });

export const ZSession = z
  .object({
    id: ZUuid,
    created_at: ZDateTime,
    expires_at: ZDateTime,
    user_agent: z.string().nullable(),
    client_address: z.string().nullable(),
    current: z.boolean().meta({ description: "The session that asked." }),
  })
  .meta({ id: "Session" });

export const ZSessionList = z.object({ items: z.array(ZSession), total: ZCount }).meta({ id: "SessionList" });
export const ZSessionEnded = z.object({ id: ZUuid, status: z.literal("ended") }).meta({ id: "SessionEnded" });
export const ZSessionsEnded = z.object({ status: z.literal("ended"), sessions_ended: ZCount }).meta({ id: "SessionsEnded" });
export const ZAccountDeleted = z.object({ status: z.literal("deleted") }).meta({ id: "AccountDeleted" });
