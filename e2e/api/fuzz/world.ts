// The accounts and resources the fuzz suite's requests name: an organisation and a creator that
// own things, another organisation that owns things too (ids a caller must not reach), a revoked
// key and sessions. Made before the rows are counted, with every one-time side row (templates,
// the personal issuer, this month's usage counter) already in place.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { api, attest, baseUrls, createIssuer, createKey, mint, randomContentHash, sessionToken } from "../helpers";
import { seedConsumer, seedOrg } from "../../accounts";

export interface World {
  keys: { org: string; foreign: string; consumer: string; revoked: string };
  /** Session tokens: the creator's, and the owner's of the caller's organisation. */
  session: string;
  ownerSession: string;
  /** Sessions a logout may end (a logout with the sessions above would leave the rest of the run unauthenticated). */
  spareSessions: string[];
  consumer: { email: string; password: string; userId: string };
  /** Ids that exist, by what they name: the fuzzed caller's own, and another tenant's. */
  own: Record<"issuer" | "attestation" | "apiKey" | "pack" | "verification" | "protection" | "user", string>;
  foreign: Record<"issuer" | "attestation" | "apiKey" | "pack" | "protection", string>;
  treeSize: number;
}

/** The largest key budgets an organisation and the Pro plan allow. */
const LIMITS = { rate_limit_per_minute: 100_000, daily_quota: 10_000_000 };
const ORG_SCOPES = [
  "attestations:read",
  "attestations:write",
  "issuers:read",
  "issuers:write",
  "api_keys:read",
  "api_keys:write",
  "packs:read",
  "packs:write",
  "verifications:read",
  "verifications:write",
];
const CONSUMER_SCOPES = ["protections:read", "protections:write", "api_keys:read", "api_keys:write"];

async function organisation(owner?: { apiKey: string }) {
  const admin = owner?.apiKey ?? (await seedOrg()).apiKey;
  const key = (await createKey(admin, ORG_SCOPES, { name: "fuzz", ...LIMITS })).key;
  const issuer = await createIssuer(key);
  const attestation = await attest(key, issuer.id, { content_hash: randomContentHash() });
  const packs = await api("/v1/attestation-packs", { key }); // makes the templates
  expect(packs.status).toBe(200);
  const template = packs.body.items[0].id as string;
  const clone = await api(`/v1/attestation-packs/${template}/clone`, { key, json: { name: "fuzz pack" } });
  expect(clone.status, clone.text).toBe(201);
  // The key the fuzz may name (and revoke): not the one it sends, or the run would end unauthenticated.
  const named = await createKey(key, ["attestations:read"], { name: "named by the fuzz" });
  return { key, issuer: issuer.id, attestation: attestation.id, pack: clone.body.id as string, apiKey: named.id };
}

/** One after the other: at once, they would spend the account's login budget (5 checks at a time). */
async function spares(account: { email: string; password: string }, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(await sessionToken(account.email, account.password));
  return out;
}

export async function makeWorld(): Promise<World> {
  const owner = await seedOrg({ owner: true });
  const org = await organisation(owner);
  const other = await organisation();
  const verification = await api("/v1/verifications", { key: org.key, json: { attestation_id: org.attestation, pack_id: org.pack } });
  expect(verification.status, verification.text).toBe(201);

  const creator = await seedConsumer({ plan: "pro" });
  const consumerKey = (await createKey(creator.apiKey, CONSUMER_SCOPES, { name: "fuzz", ...LIMITS })).key;
  const minted = await mint(consumerKey, { content_hash: randomContentHash(), visibility: "public" }, randomUUID());
  expect(minted.status, minted.text).toBe(201);
  const rival = await seedConsumer({ plan: "pro" });
  const rivalMint = await mint(rival.apiKey, { content_hash: randomContentHash(), visibility: "private" });
  expect(rivalMint.status, rivalMint.text).toBe(201);

  const revoked = await createKey(org.key, ["attestations:read"], { name: "revoked" });
  expect((await api(`/v1/api-keys/${revoked.id}/revoke`, { key: org.key, method: "POST" })).status).toBe(200);
  const log = await api("/v1/log");
  return {
    keys: { org: org.key, foreign: other.key, consumer: consumerKey, revoked: revoked.key },
    session: await sessionToken(creator.email, creator.password, baseUrls.length - 1),
    ownerSession: await sessionToken(owner.email, owner.password),
    spareSessions: await spares(creator, 6),
    consumer: { email: creator.email, password: creator.password, userId: creator.userId },
    own: {
      issuer: org.issuer,
      attestation: org.attestation,
      apiKey: org.apiKey,
      pack: org.pack,
      verification: verification.body.id,
      protection: minted.body.protection_id,
      user: creator.userId,
    },
    foreign: {
      issuer: other.issuer,
      attestation: other.attestation,
      apiKey: other.apiKey,
      pack: other.pack,
      protection: rivalMint.body.protection_id,
    },
    treeSize: log.body.tree_size,
  };
}
