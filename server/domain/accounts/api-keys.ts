import "server-only";
import { getConfig } from "../../config";
import { getDb, type Tx } from "../../db";
import { getStore } from "../../store/index";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "../../crypto/api-key-secret";
import { lockKeysOf } from "./revocation";
import { AppError, notFound } from "../../errors";
import { iso, newId } from "../ids";
import { accountPlanOf, boundedBudget, type AccountPlan } from "../plans";
import { CONSUMER_SCOPES, isScope, ORGANIZATION_SCOPES, type Scope } from "@/lib/scopes";

/** A new key's budgets when none are asked for: the free plan's figures (plans/key-budgets.ts), so they fit every plan. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;
export const DEFAULT_DAILY_QUOTA = 100_000;

/** The API key as the interface lists it: the secret is never part of it. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  status: "ACTIVE" | "REVOKED";
  scopes: Scope[];
  daily_quota: number;
  rate_limit_per_minute: number;
  created_at: string;
}

/** Who a request runs for, once its key checks out. */
export interface ApiKeyPrincipal {
  kind: "api_key";
  tenantId: string;
  apiKeyId: string;
  userId: string | null;
  scopes: ReadonlySet<Scope>;
  dailyQuota: number;
  rateLimitPerMinute: number;
}

type ApiKeyRow = {
  id: string;
  name: string;
  prefix: string;
  status: string;
  scopes: string;
  dailyQuota: number;
  rateLimitPerMinute: number;
  createdAt: Date;
};

function parseScopes(json: string): Scope[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((s): s is Scope => typeof s === "string" && isScope(s)) : [];
}

/** Parsed scope sets by their stored JSON: keys share a handful of them, and every request needs one. */
const scopeSets = new Map<string, ReadonlySet<Scope>>();

function scopeSet(json: string): ReadonlySet<Scope> {
  let set = scopeSets.get(json);
  if (!set) {
    if (scopeSets.size >= 1000) scopeSets.clear();
    scopeSets.set(json, (set = new Set(parseScopes(json))));
  }
  return set;
}

/** A key as listed: with `plan`, its budgets as they are spent, within the account's plan (boundedBudget). */
function toView(row: ApiKeyRow, plan?: AccountPlan): ApiKeyView {
  const budget = plan ? boundedBudget(row, plan) : row;
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    status: row.status === "REVOKED" ? "REVOKED" : "ACTIVE",
    scopes: parseScopes(row.scopes),
    daily_quota: budget.dailyQuota,
    rate_limit_per_minute: budget.rateLimitPerMinute,
    created_at: iso(row.createdAt),
  };
}

export interface CreateApiKeyOptions {
  tenantId: string;
  userId?: string | null;
  name: string;
  scopes: readonly Scope[];
  dailyQuota?: number;
  rateLimitPerMinute?: number;
}

/**
 * Creates a key. The secret is returned here and never again. Pass `tx` to join a transaction.
 * The budgets asked for are stored as they are: the caller checks them against the account's
 * plan (checkKeyBudget), and they are spent within it whatever is stored (boundedBudget).
 */
export async function createApiKey(opts: CreateApiKeyOptions, tx?: Tx): Promise<{ key: ApiKeyView; secret: string }> {
  const { secret, prefix, hash } = generateApiKey();
  const data = {
    id: newId(),
    tenantId: opts.tenantId,
    userId: opts.userId ?? null,
    name: opts.name,
    prefix,
    secretHash: hash,
    scopes: JSON.stringify([...new Set(opts.scopes)]),
    status: "ACTIVE",
    dailyQuota: opts.dailyQuota ?? DEFAULT_DAILY_QUOTA,
    rateLimitPerMinute: opts.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
    createdAt: new Date(),
  };
  const row = tx ? await tx.apiKey.create({ data }) : await getDb().write((t) => t.apiKey.create({ data }));
  return { key: toView(row), secret };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Who asks for a key: the session or the key the request was authenticated with. */
export type KeyCreator = { sessionId: string } | { apiKeyId: string };

const creatorGone = (creator: KeyCreator) =>
  "sessionId" in creator
    ? new AppError("invalid_session", "The session is invalid or has ended.")
    : new AppError("invalid_api_key", "The API key is invalid or has been revoked.");

/**
 * Inside the key's transaction, as its first write: takes the tenant's row (lockKeysOf) and
 * checks that the session or key that asked is still live. A reset (or a revocation) takes the
 * same lock, so a creation authenticated just before a reset and reaching its transaction just
 * after it is refused, as the next request would be, instead of leaving a key the reset never
 * saw. SQLite runs one write transaction at a time, so there the creator is read in the lock's
 * own statement; PostgreSQL reads a statement's subqueries as of the statement's start, before
 * it waited for the lock, so there the creator is read in a statement of its own after it.
 */
async function lockKeysForCreator(tx: Tx, tenantId: string, now: Date, creator: KeyCreator): Promise<void> {
  if (getConfig().dbKind === "postgres") {
    await lockKeysOf(tx, tenantId, now);
    const live =
      "sessionId" in creator
        ? (await tx.session.findUnique({ where: { id: creator.sessionId }, select: { endedAt: true } }))?.endedAt === null
        : (await tx.apiKey.findUnique({ where: { id: creator.apiKeyId }, select: { status: true } }))?.status === "ACTIVE";
    if (!live) throw creatorGone(creator);
    return;
  }
  const live =
    "sessionId" in creator
      ? { users: { some: { sessions: { some: { id: creator.sessionId, endedAt: null } } } } }
      : { apiKeys: { some: { id: creator.apiKeyId, status: "ACTIVE" } } };
  const { count } = await tx.tenant.updateMany({ where: { id: tenantId, ...live }, data: { updatedAt: now } });
  if (count !== 1) throw creatorGone(creator);
}

/**
 * Creates a key for a caller, within what its account's plan allows (PLAN_ACTIVE_KEYS):
 * `maxActive` active keys, and twice that many created in any 24 hours (revoked ones count).
 * At either bound, 409 `too_many_keys`, and nothing is created. The counts and the insert share
 * one transaction that first takes the tenant's row (lockKeysOf), so concurrent creations for one
 * account queue on it, and with a reset's revocation, and cannot pass a bound together.
 */
export async function createBoundedApiKey(
  opts: CreateApiKeyOptions,
  maxActive: number,
  creator?: KeyCreator,
): Promise<{ key: ApiKeyView; secret: string }> {
  return getDb().write(async (tx) => {
    const now = new Date();
    if (creator) await lockKeysForCreator(tx, opts.tenantId, now, creator);
    else await lockKeysOf(tx, opts.tenantId, now);
    const active = await tx.apiKey.count({ where: { tenantId: opts.tenantId, status: "ACTIVE" } });
    if (active >= maxActive) {
      throw new AppError(
        "too_many_keys",
        `This account's plan allows ${maxActive} active API keys and it holds ${active}: revoke one it no longer uses first.`,
      );
    }
    const maxCreated = 2 * maxActive;
    const created = await tx.apiKey.count({ where: { tenantId: opts.tenantId, createdAt: { gt: new Date(now.getTime() - DAY_MS) } } });
    if (created >= maxCreated) {
      throw new AppError(
        "too_many_keys",
        `This account's plan allows ${maxCreated} API keys to be created in 24 hours, revoked ones included; try again tomorrow.`,
      );
    }
    return createApiKey(opts, tx);
  });
}

/**
 * The scopes any key of a tenant may hold, whoever creates it: a consumer's (PERSONAL)
 * keys reach the consumer endpoints only, an organisation's never the consumer ones.
 */
export async function scopesForTenant(tenantId: string): Promise<readonly Scope[]> {
  const tenant = await getDb().read.tenant.findUnique({ where: { id: tenantId }, select: { kind: true } });
  if (!tenant) throw notFound("Tenant");
  return tenant.kind === "PERSONAL" ? CONSUMER_SCOPES : ORGANIZATION_SCOPES;
}

/** The address an account's notices go to: its person's, or an organisation's owner's; null when it has none. */
export async function ownerEmailOf(tenantId: string): Promise<string | null> {
  const owner = await getDb().read.user.findUnique({ where: { tenantId }, select: { email: true } });
  return owner?.email ?? null;
}

export async function listApiKeys({ tenantId }: { tenantId: string }): Promise<ApiKeyView[]> {
  const [rows, plan] = await Promise.all([
    getDb().read.apiKey.findMany({ where: { tenantId }, orderBy: { createdAt: "desc" } }),
    accountPlanOf(tenantId),
  ]);
  return rows.map((row) => toView(row, plan));
}

/** Permanent. Revoking a revoked key answers the same; another tenant's key is not found. */
export async function revokeApiKey({ tenantId, id }: { tenantId: string; id: string }) {
  return getDb().write(async (tx) => {
    const row = await tx.apiKey.findFirst({ where: { id, tenantId }, select: { id: true, status: true } });
    if (!row) throw notFound("API key");
    if (row.status !== "REVOKED") {
      await tx.apiKey.update({ where: { id }, data: { status: "REVOKED", revokedAt: new Date() } });
    }
    return { id, status: "REVOKED" as const };
  });
}

/**
 * Resolves a presented key. Read from the database on every request (one indexed lookup),
 * so a revocation committed by any instance takes effect on the next request everywhere.
 */
export async function authenticateApiKey(secret: string): Promise<ApiKeyPrincipal> {
  const invalid = () => new AppError("invalid_api_key", "The API key is invalid or has been revoked.");
  if (!isWellFormedApiKey(secret)) throw invalid();
  const row = await getStore().reads.apiKeyByHash(hashApiKey(secret));
  if (!row || row.status !== "ACTIVE") throw invalid();
  return {
    kind: "api_key",
    tenantId: row.tenantId,
    apiKeyId: row.id,
    userId: row.userId,
    scopes: scopeSet(row.scopes),
    dailyQuota: row.dailyQuota,
    rateLimitPerMinute: row.rateLimitPerMinute,
  };
}
