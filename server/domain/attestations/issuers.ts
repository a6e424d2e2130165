import "server-only";
import { getDb, type Tx } from "../../db";
import { notFound } from "../../errors";
import { iso, newId } from "../ids";
import { forgetSigner, insertSigningKey, rotateSigningKey, toKeyView, type SigningKeyView } from "./signing-keys";

/** How far a relying party trusts an issuer, least first; what a pack's min_trust_level names. */
export const TRUST_LEVELS = ["BASIC", "VERIFIED", "HIGH"] as const;
export const ISSUER_STATUSES = ["PENDING", "ACTIVE", "SUSPENDED"] as const;
export const KEY_ALGORITHMS = ["Ed25519"] as const;
export type TrustLevel = (typeof TRUST_LEVELS)[number];
export type IssuerStatus = (typeof ISSUER_STATUSES)[number];

export interface IssuerView {
  id: string;
  tenant_id: string;
  name: string;
  domain: string;
  status: IssuerStatus;
  trust_level: TrustLevel;
  created_at: string;
  updated_at: string;
}

type IssuerRow = {
  id: string;
  tenantId: string;
  name: string;
  domain: string;
  status: string;
  trustLevel: string;
  createdAt: Date;
  updatedAt: Date;
};

export function toIssuerView(row: IssuerRow): IssuerView {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    domain: row.domain,
    status: row.status as IssuerStatus,
    trust_level: row.trustLevel as TrustLevel,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** An issuer at trust level BASIC and its first signing key, inside `tx`. */
export async function insertIssuerWithKey(
  tx: Tx,
  opts: { tenantId: string; name: string; domain: string; status: "PENDING" | "ACTIVE"; personalFor?: string },
) {
  const now = new Date();
  const issuer = await tx.issuer.create({
    data: { id: newId(), ...opts, trustLevel: "BASIC", createdAt: now, updatedAt: now },
  });
  return { issuer, key: await insertSigningKey(tx, issuer.id, now) };
}

/** A new issuer starts PENDING (its domain is not verified) at trust level BASIC, with one key. */
export async function createIssuer(opts: { tenantId: string; name: string; domain: string }) {
  return getDb().write(async (tx) => {
    const { issuer, key } = await insertIssuerWithKey(tx, { ...opts, status: "PENDING" });
    return { ...toIssuerView(issuer), keys: [toKeyView(key)] };
  });
}

export async function listIssuers({ tenantId }: { tenantId: string }): Promise<IssuerView[]> {
  const rows = await getDb().read.issuer.findMany({ where: { tenantId }, orderBy: { createdAt: "desc" } });
  return rows.map(toIssuerView);
}

export async function getIssuerOrThrow({ tenantId, id }: { tenantId: string; id: string }) {
  const row = await getDb().read.issuer.findFirst({
    where: { id, tenantId },
    include: { keys: { orderBy: { createdAt: "desc" } } },
  });
  if (!row) throw notFound("Issuer");
  return { ...toIssuerView(row), keys: row.keys.map(toKeyView) };
}

/** Rotation: the new key signs from now on; the old one stays valid for what it signed. */
export async function rotateIssuerKey({ tenantId, id }: { tenantId: string; id: string }): Promise<SigningKeyView> {
  const key = await getDb().write(async (tx) => {
    // Writing the issuer row first locks it (PostgreSQL), so concurrent rotations of one issuer,
    // from any instance, run one after another and each sees the key the previous one made.
    const touched = await tx.issuer.updateMany({ where: { id, tenantId }, data: { updatedAt: new Date() } });
    if (touched.count === 0) throw notFound("Issuer");
    return rotateSigningKey(tx, id);
  });
  forgetSigner(id);
  return toKeyView(key);
}
