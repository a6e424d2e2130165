import "server-only";
import { getDb, isUniqueViolation } from "../../db";
import { AppError, notFound } from "../../errors";
import { iso, newId } from "../ids";
import { RULES_VERSION, ZPackRules, type PackRules } from "./pack-rules";
import { PACK_TEMPLATES, TEMPLATE_KEYS } from "./pack-templates";
import { parseJson } from "@/lib/verify/json-parse";

export const PACK_STATUSES = ["active", "archived"] as const;
export type PackStatus = (typeof PACK_STATUSES)[number];

/** A list item: exactly the interface's fields. */
export interface PackListItem {
  id: string;
  tenant_id: string;
  name: string;
  description: string;
  category: string;
  region: string;
  status: PackStatus;
  is_template: boolean;
  verifications_count: number;
  created_at: string;
  updated_at: string;
}

/** GET /v1/attestation-packs/{id}: the list item plus its rules and metadata. */
export interface PackView extends PackListItem {
  rules: PackRules;
  metadata: {
    /** The built-in template this pack is (null for a custom pack). */
    template_key: string | null;
    /** The pack this one was cloned from (null if it was not cloned). */
    cloned_from: string | null;
    /** Version of the rule language the rules are written in. */
    rules_version: number;
    /** Starts at 1; every update that changes the pack adds one. Verifications record it. */
    revision: number;
  };
}

export type PackRow = {
  id: string;
  tenantId: string;
  templateKey: string | null;
  name: string;
  description: string;
  category: string;
  region: string;
  status: string;
  isTemplate: boolean;
  rules: string;
  revision: number;
  clonedFrom: string | null;
  verificationsCount: number;
  createdAt: Date;
  updatedAt: Date;
};

export function toPackListItem(row: PackRow): PackListItem {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    description: row.description,
    category: row.category,
    region: row.region,
    status: row.status as PackStatus,
    is_template: row.isTemplate,
    verifications_count: row.verificationsCount,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** Stored rules were validated on the way in; parsing again keeps a hand-edited row from reaching the evaluator. */
export const rulesOf = (row: Pick<PackRow, "rules">): PackRules => ZPackRules.parse(parseJson(row.rules));

export function toPackView(row: PackRow): PackView {
  return {
    ...toPackListItem(row),
    rules: rulesOf(row),
    metadata: { template_key: row.templateKey, cloned_from: row.clonedFrom, rules_version: RULES_VERSION, revision: row.revision },
  };
}

/** Tenants whose templates this process has seen complete (rows are never deleted). */
const ensured = new Set<string>();

async function missingTemplateKeys(tenantId: string): Promise<string[]> {
  const rows = await getDb().read.verificationPack.findMany({ where: { tenantId, isTemplate: true }, select: { templateKey: true } });
  const have = new Set(rows.map((r) => r.templateKey));
  return TEMPLATE_KEYS.filter((k) => !have.has(k));
}

/**
 * Creates the built-in templates the tenant lacks, exactly once however many first accesses
 * race: the unique (tenant_id, template_key) lets one transaction insert a template; a racing
 * one fails on the constraint (PostgreSQL: after waiting for the winner's commit) and then
 * simply finds the rows. SQLite serialises the transactions, so the second one sees them.
 */
export async function ensureTemplates(tenantId: string): Promise<void> {
  if (ensured.has(tenantId)) return;
  if ((await missingTemplateKeys(tenantId)).length > 0) {
    try {
      await getDb().write(async (tx) => {
        const rows = await tx.verificationPack.findMany({ where: { tenantId, isTemplate: true }, select: { templateKey: true } });
        const have = new Set(rows.map((r) => r.templateKey));
        const now = new Date();
        const data = PACK_TEMPLATES.filter((t) => !have.has(t.key)).map((t) => ({
          id: newId(),
          tenantId,
          templateKey: t.key,
          name: t.name,
          description: t.description,
          category: t.category,
          region: t.region,
          status: "active",
          isTemplate: true,
          rules: JSON.stringify(t.rules),
          createdAt: now,
          updatedAt: now,
        }));
        if (data.length) await tx.verificationPack.createMany({ data });
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Another request created them; it has committed, so they are there to read.
      if ((await missingTemplateKeys(tenantId)).length > 0) throw err;
    }
  }
  ensured.add(tenantId);
}

const templateRank = (key: string | null) => {
  const i = key === null ? -1 : TEMPLATE_KEYS.indexOf(key);
  return i < 0 ? TEMPLATE_KEYS.length : i;
};

export interface ListPacksOptions {
  tenantId: string;
  status?: PackStatus;
  /** only templates (true) or only custom packs (false) */
  isTemplate?: boolean;
  limit: number;
  offset: number;
}

/** Templates first (in their fixed order), then custom packs newest first; total counts all that match. */
export async function listPacks(opts: ListPacksOptions): Promise<{ items: PackListItem[]; total: number }> {
  await ensureTemplates(opts.tenantId);
  const db = getDb().read;
  const where = { tenantId: opts.tenantId, ...(opts.status ? { status: opts.status } : {}) };
  const wantTemplates = opts.isTemplate !== false;
  const wantCustom = opts.isTemplate !== true;
  const templates = wantTemplates
    ? (await db.verificationPack.findMany({ where: { ...where, isTemplate: true } })).sort(
        (a, b) => templateRank(a.templateKey) - templateRank(b.templateKey),
      )
    : [];
  const customWhere = { ...where, isTemplate: false };
  const customTotal = wantCustom ? await db.verificationPack.count({ where: customWhere }) : 0;
  const pageTemplates = templates.slice(opts.offset, opts.offset + opts.limit);
  const room = opts.limit - pageTemplates.length;
  const custom =
    wantCustom && room > 0
      ? await db.verificationPack.findMany({
          where: customWhere,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          skip: Math.max(0, opts.offset - templates.length),
          take: room,
        })
      : [];
  return { items: [...pageTemplates, ...custom].map(toPackListItem), total: templates.length + customTotal };
}

/** The tenant's pack row; another tenant's id answers exactly like an unknown one. */
export async function getPackRow(tenantId: string, id: string): Promise<PackRow> {
  const row = await getDb().read.verificationPack.findFirst({ where: { id, tenantId } });
  if (!row) throw notFound("Pack");
  return row;
}

export async function getPack({ tenantId, id }: { tenantId: string; id: string }): Promise<PackView> {
  await ensureTemplates(tenantId);
  return toPackView(await getPackRow(tenantId, id));
}

export interface CreatePackInput {
  name: string;
  description: string;
  category: string;
  region: string;
  rules: PackRules;
}

export async function createPack({
  tenantId,
  input,
  clonedFrom = null,
}: {
  tenantId: string;
  input: CreatePackInput;
  clonedFrom?: string | null;
}): Promise<PackView> {
  const now = new Date();
  const row = await getDb().write((tx) =>
    tx.verificationPack.create({
      data: {
        id: newId(),
        tenantId,
        templateKey: null,
        name: input.name,
        description: input.description,
        category: input.category,
        region: input.region,
        status: "active",
        isTemplate: false,
        rules: JSON.stringify(input.rules),
        clonedFrom,
        createdAt: now,
        updatedAt: now,
      },
    }),
  );
  return toPackView(row);
}

export type UpdatePackInput = Partial<CreatePackInput & { status: PackStatus }>;

/** Updates a custom pack; a template is read-only (409 pack_read_only). */
export async function updatePack({ tenantId, id, input }: { tenantId: string; id: string; input: UpdatePackInput }): Promise<PackView> {
  const row = await getDb().write(async (tx) => {
    const current = await tx.verificationPack.findFirst({ where: { id, tenantId } });
    if (!current) throw notFound("Pack");
    if (current.isTemplate) {
      throw new AppError(
        "pack_read_only",
        "Built-in templates cannot be changed; clone it (POST /v1/attestation-packs/{id}/clone) and edit the copy.",
      );
    }
    const data = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.region !== undefined ? { region: input.region } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.rules !== undefined ? { rules: JSON.stringify(input.rules) } : {}),
    };
    const changed = Object.entries(data).some(([k, v]) => (current as Record<string, unknown>)[k] !== v);
    if (!changed) return current;
    // The increment is in the statement, so concurrent updates each add one.
    return tx.verificationPack.update({ where: { id }, data: { ...data, revision: { increment: 1 }, updatedAt: new Date() } });
  });
  return toPackView(row);
}

/** A new custom pack with the source's rules and descriptions (a template or a custom pack). */
export async function clonePack({ tenantId, id, name }: { tenantId: string; id: string; name?: string }): Promise<PackView> {
  await ensureTemplates(tenantId);
  const source = await getPackRow(tenantId, id);
  const copyName = name ?? `${source.name} (copy)`.slice(0, 200);
  return createPack({
    tenantId,
    clonedFrom: source.id,
    input: { name: copyName, description: source.description, category: source.category, region: source.region, rules: rulesOf(source) },
  });
}
