import "server-only";
import { BUNDLE_CHECKS, type EntryKind, hasSeal, parseProofBundle, SEALED_CHECKS, verifyProofBundle, type ProofBundle } from "@/lib/verify";
import { getLogIdentity } from "../../log/log-identity";
import { getDb } from "../../db";
import { getStore } from "../../store/index";
import { AppError, notFound } from "../../errors";
import { iso, newId } from "../ids";
import { evaluateRules, ruleCheckNames, type CheckResult, type PackRules, type RuleFacts } from "./pack-rules";
import { ensureTemplates, getPackRow, rulesOf, type PackRow } from "./packs";
import { getProofBundle } from "../public-log";

export interface VerificationView {
  id: string;
  result: "pass" | "fail";
  checks: CheckResult[];
  /** The pack applied (null: only the cryptographic checks ran). verifications_count: in an answer to POST, the count including this verification; in a read, the current count. */
  pack: { id: string; name: string; revision: number; verifications_count: number } | null;
  /** The attestation verified; for a supplied bundle, the id it claims (null if it names none, or it is a sealed leaf alone). */
  attestation_id: string | null;
  /** Set when the verified attestation is a consumer protection of this log that the caller may see: a public one, or its own. */
  protection_id: string | null;
  /** What the verified entry is (null when the cryptographic checks failed): see entryKindOf. */
  entry_kind: EntryKind | null;
  source: "attestation" | "bundle";
  /** The caller's content hash (lowercase hex), if sent. */
  content_hash: string | null;
  created_at: string;
}

export interface RunVerificationInput {
  attestation_id?: string;
  bundle?: Record<string, unknown>;
  pack_id?: string;
  /** lowercase hex */
  content_hash?: string;
}

const NOT_TRUSTED = "not evaluated: the cryptographic checks failed, so nothing in the bundle can be relied on";

/** The check that says a bundle holds a sealed leaf without its opening (after the cryptographic ones). */
const SEALED_ENTRY_CHECK: CheckResult = {
  name: "sealed_entry",
  result: "pass",
  reason:
    "a sealed entry: the log holds only a commitment to an attestation whose content is its owner's; its signature and inclusion verify, and it names no attestation or protection",
};

/** The entry kind a run's checks show: opened (the seal's checks ran), sealed (a sealed leaf alone), open; null if the cryptographic checks failed. */
function entryKindOf(checks: CheckResult[]): EntryKind | null {
  const crypto = checks.filter((c) => (SEALED_CHECKS as readonly string[]).includes(c.name));
  if (crypto.length === 0 || crypto.some((c) => c.result !== "pass")) return null;
  if (checks.some((c) => c.name === "seal_opening")) return "opened";
  return checks.some((c) => c.name === SEALED_ENTRY_CHECK.name) ? "sealed" : "open";
}
/** lib/verify's answer as its checks (four, or six for a sealed entry): the ones it ran, then the rest as not run. */
function cryptoChecks(v: ReturnType<typeof verifyProofBundle>, sealed: boolean): CheckResult[] {
  let failedAt: string | null = null;
  // The checks lib/verify runs, in its order; each is always reported.
  return (sealed ? SEALED_CHECKS : BUNDLE_CHECKS).map((name) => {
    const ran = v.checks.find((c) => c.name === name);
    if (ran) {
      if (!ran.ok) failedAt = name;
      return { name, result: ran.ok ? "pass" : "fail", reason: ran.detail } as CheckResult;
    }
    if (failedAt === null && !v.ok) {
      // It failed before this check could start (e.g. a malformed bundle or a foreign log key).
      failedAt = name;
      return { name, result: "fail", reason: v.message };
    }
    return { name, result: "fail", reason: `not run: ${failedAt} failed` };
  });
}

/**
 * What the rules may rely on: the signed attestation, and this log's own records of its issuer,
 * key and protection. A protection is a fact only for whom may see it (public now, or the
 * caller's own): anyone else's private protection is no fact at all, exactly as an attestation
 * with none. A sealed leaf alone names nothing: no protection is looked for (a hallmark.sealed/v1
 * leaf carries its attestation's id, which must not lead to it).
 */
async function factsOf(
  b: ProofBundle,
  kind: EntryKind,
  tenantId: string,
  contentHash: string | null,
): Promise<{ facts: RuleFacts; protectionId: string | null }> {
  const reads = getStore().reads;
  const [issuer, key, found] = await Promise.all([
    reads.issuer(b.attestation.issuer_id),
    reads.signingKey(b.attestation.kid),
    kind === "sealed"
      ? null
      : getDb().read.protection.findUnique({
          where: { attestationId: b.attestation.id },
          select: { id: true, visibility: true, tenantId: true },
        }),
  ]);
  const protection =
    found && (found.visibility === "public" || found.tenantId === tenantId) ? { id: found.id, visibility: found.visibility } : null;
  return {
    protectionId: protection?.id ?? null,
    facts: {
      payload: b.attestation.payload,
      createdAt: new Date(b.attestation.created_at),
      issuer: issuer ? { status: issuer.status, trustLevel: issuer.trustLevel } : null,
      keyAlgorithm: key?.algorithm ?? null,
      protection,
      sealed: kind === "sealed",
      contentHash,
      now: new Date(),
    },
  };
}

const claimedId = (bundle: unknown): string | null => {
  const id = (bundle as { attestation?: { id?: unknown } } | null)?.attestation?.id;
  return typeof id === "string" && id.length > 0 ? id.slice(0, 256) : null;
};

/**
 * Verifies an attestation of the caller's tenant (by id) or any proof bundle (as given) with
 * lib/verify against this log's key, then applies the pack's rules, and records the run.
 * The pack's count (every run) and the protection's count (its first run by this tenant, of a
 * protection the caller may see) go up in the same transaction as the record, each by one
 * UPDATE ... SET n = n + 1, so concurrent runs are counted exactly. A sealed leaf alone verifies
 * (its signature and inclusion) and names nothing: no attestation, no protection, no count.
 */
export async function runVerification({ tenantId, input }: { tenantId: string; input: RunVerificationInput }): Promise<VerificationView> {
  let pack: PackRow | null = null;
  let rules: PackRules = {};
  if (input.pack_id !== undefined) {
    await ensureTemplates(tenantId);
    pack = await getPackRow(tenantId, input.pack_id);
    if (pack.status !== "active") throw archived();
    rules = rulesOf(pack);
  }
  const source = input.attestation_id !== undefined ? "attestation" : "bundle";
  const bundle: unknown =
    input.attestation_id !== undefined
      ? await getProofBundle({ tenantId, id: input.attestation_id }, { witnessed: "optional" })
      : input.bundle;
  const contentHash = input.content_hash ?? null;

  const log = await getLogIdentity();
  const crypto = verifyProofBundle(bundle, { logPublicKey: log.publicKey, origin: log.origin });
  const checks = cryptoChecks(crypto, hasSeal(bundle));
  let protectionId: string | null = null;
  if (crypto.ok) {
    if (crypto.kind === "sealed") checks.push(SEALED_ENTRY_CHECK);
    const { facts, protectionId: pid } = await factsOf(parseProofBundle(bundle), crypto.kind, tenantId, contentHash);
    protectionId = pid;
    checks.push(...evaluateRules(rules, facts));
  } else {
    for (const name of ruleCheckNames(rules, contentHash !== null)) checks.push({ name, result: "fail", reason: NOT_TRUSTED });
  }
  const result = checks.every((c) => c.result === "pass") ? "pass" : "fail";
  const attestationId = crypto.ok && crypto.kind === "sealed" ? null : (input.attestation_id ?? claimedId(bundle));

  const now = new Date();
  const id = newId();
  const packAfter = await getDb().write(async (tx) => {
    let after: { verificationsCount: number; name: string; revision: number } | null = null;
    if (pack) {
      const bumped = await tx.verificationPack.updateMany({
        where: { id: pack.id, tenantId, status: "active" },
        data: { verificationsCount: { increment: 1 } },
      });
      if (bumped.count === 0) throw archived(); // archived since it was read
      after = await tx.verificationPack.findUniqueOrThrow({
        where: { id: pack.id },
        select: { verificationsCount: true, name: true, revision: true },
      });
    }
    // Only a bundle that verified is known to be that attestation, so only then does its protection
    // count, and once per verifying tenant: the row of the pair is inserted at most once (a unique
    // key, ON CONFLICT DO NOTHING, so racing runs of one tenant add one), and only its insertion counts.
    if (protectionId) {
      const first =
        await tx.$executeRaw`INSERT INTO protection_verifiers (protection_id, tenant_id) VALUES (${protectionId}, ${tenantId}) ON CONFLICT DO NOTHING`;
      if (first > 0) await tx.protection.update({ where: { id: protectionId }, data: { verificationCount: { increment: 1 } } });
    }
    await tx.verification.create({
      data: {
        id,
        tenantId,
        packId: pack?.id ?? null,
        packRevision: pack?.revision ?? null,
        source,
        attestationId,
        protectionId,
        contentHash,
        result,
        checks: JSON.stringify(checks),
        createdAt: now,
      },
    });
    return after;
  });
  return {
    id,
    result,
    checks,
    pack:
      pack && packAfter
        ? { id: pack.id, name: pack.name, revision: pack.revision, verifications_count: packAfter.verificationsCount }
        : null,
    attestation_id: attestationId,
    protection_id: protectionId,
    entry_kind: entryKindOf(checks),
    source,
    content_hash: contentHash,
    created_at: iso(now),
  };
}

const archived = () => new AppError("pack_archived", "The pack is archived; set its status to active to verify with it.");

type VerificationRow = {
  id: string;
  packId: string | null;
  packRevision: number | null;
  source: string;
  attestationId: string | null;
  protectionId: string | null;
  contentHash: string | null;
  result: string;
  checks: string;
  createdAt: Date;
};

/**
 * The tenant's verifications as it may read them now: a protection is named only while the
 * tenant may see it (public, or its own), so one made private since, or named by a run recorded
 * before private protections were withheld, is not.
 */
async function toViews(tenantId: string, rows: VerificationRow[]): Promise<VerificationView[]> {
  const db = getDb().read;
  const packIds = [...new Set(rows.map((r) => r.packId).filter((p): p is string => p !== null))];
  const protectionIds = [...new Set(rows.map((r) => r.protectionId).filter((p): p is string => p !== null))];
  const [packs, visible] = await Promise.all([
    packIds.length
      ? db.verificationPack.findMany({ where: { id: { in: packIds } }, select: { id: true, name: true, verificationsCount: true } })
      : [],
    protectionIds.length
      ? db.protection.findMany({
          where: { id: { in: protectionIds }, OR: [{ visibility: "public" }, { tenantId }] },
          select: { id: true },
        })
      : [],
  ]);
  const byId = new Map(packs.map((p) => [p.id, p]));
  const seen = new Set(visible.map((p) => p.id));
  return rows.map((r) => {
    const p = r.packId ? byId.get(r.packId) : undefined;
    const checks = JSON.parse(r.checks) as CheckResult[];
    return {
      id: r.id,
      result: r.result as "pass" | "fail",
      checks,
      pack: p ? { id: p.id, name: p.name, revision: r.packRevision ?? 1, verifications_count: p.verificationsCount } : null,
      attestation_id: r.attestationId,
      protection_id: r.protectionId !== null && seen.has(r.protectionId) ? r.protectionId : null,
      entry_kind: entryKindOf(checks),
      source: r.source as "attestation" | "bundle",
      content_hash: r.contentHash,
      created_at: iso(r.createdAt),
    };
  });
}

export async function listVerifications(opts: {
  tenantId: string;
  packId?: string;
  result?: "pass" | "fail";
  limit: number;
  offset: number;
}) {
  const where = {
    tenantId: opts.tenantId,
    ...(opts.packId ? { packId: opts.packId } : {}),
    ...(opts.result ? { result: opts.result } : {}),
  };
  const db = getDb().read;
  const [rows, total] = await Promise.all([
    db.verification.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: opts.offset, take: opts.limit }),
    db.verification.count({ where }),
  ]);
  return { items: await toViews(opts.tenantId, rows), total };
}

export async function getVerification({ tenantId, id }: { tenantId: string; id: string }): Promise<VerificationView> {
  const row = await getDb().read.verification.findFirst({ where: { id, tenantId } });
  if (!row) throw notFound("Verification");
  return (await toViews(tenantId, [row]))[0]!;
}
