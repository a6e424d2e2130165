import "server-only";
import { getDb } from "../../db";
import { iso } from "../ids";
import { localOf } from "../../merkle/positions";

/** A private protection whose log entry is not sealed: anyone reading the log can read it. */
export interface ReadablePrivateProtection {
  protection_id: string;
  email: string;
  log_index: number;
  protected_at: string;
}

const PAGE = 1000;

/**
 * The private protections whose entries the public log holds in the open: minted before sealed
 * entries, or minted public and made private later (the log is append-only: what it published
 * stays). For the operator who must tell their owners (npm run admin -- readable-private).
 * Oldest first, read a page at a time.
 */
export async function* readablePrivateProtections(): AsyncGenerator<ReadablePrivateProtection> {
  const db = getDb().read;
  for (let after: string | undefined; ; ) {
    const page = await db.protection.findMany({
      where: { visibility: "private", ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take: PAGE,
      select: { id: true, attestationId: true, createdAt: true, user: { select: { email: true } } },
    });
    if (page.length === 0) return;
    const open = await db.attestation.findMany({
      where: { id: { in: page.map((p) => p.attestationId) }, seal: null },
      select: { id: true, logIndex: true },
    });
    const indexOf = new Map(open.map((a) => [a.id, localOf(a.logIndex)]));
    for (const p of page) {
      const logIndex = indexOf.get(p.attestationId);
      if (logIndex !== undefined) yield { protection_id: p.id, email: p.user.email, log_index: logIndex, protected_at: iso(p.createdAt) };
    }
    after = page[page.length - 1]!.id;
  }
}
