import "server-only";
import type { LogEntry, LogGroup } from "../../log/log-append";
import { getSequencer } from "../../log/sequencer";
import { attestationTime, canonicalPayload, leafTooLarge, viewOf, type AttestationView } from "./attestations";
import { type AttestJob, attestAll, signAll } from "../../crypto/sign-pool";
import { canonicalFieldsOf, SIGNATURE_CHARS } from "../../crypto/attestation-bytes.mjs";
import { iso, newId } from "../ids";
import { AppError, type FieldError } from "../../errors";
import { checkIdempotencyKey, holdIdempotencyKey, IdempotentReplay, storeIdempotentAnswer } from "../idempotency";
import { getActiveIssuer } from "./issuer-cache";
import { getSealer, prepareSeal, type Sealer, sealedEntry } from "./sealing";
import { getSigner, type Signer } from "./signing-keys";

/** Items in one POST /v1/attestations/batch. */
export const MAX_BATCH_ITEMS = 1000;
/** Largest batch body: room for 1,000 items of about 8 KiB each (one item may hold up to 64 KiB). */
export const MAX_BATCH_BODY_BYTES = 8 * 1024 * 1024;

export interface BatchItem {
  issuer_id: string;
  payload: Record<string, unknown>;
  /** Log this item sealed (lib/verify/sealed.ts). */
  sealed?: boolean;
}

export interface BatchResult {
  attestations: AttestationView[];
  replayed: boolean;
}

/** The signer of each issuer the items name, or why it cannot sign for this tenant. */
async function signersOf(tenantId: string, items: BatchItem[]): Promise<Map<string, Signer | string>> {
  const out = new Map<string, Signer | string>();
  for (const id of new Set(items.map((i) => i.issuer_id))) {
    try {
      await getActiveIssuer(tenantId, id);
      out.set(id, await getSigner(id));
    } catch (err) {
      if (!(err instanceof AppError) || (err.code !== "not_found" && err.code !== "issuer_not_active")) throw err;
      out.set(id, err.code === "not_found" ? "no such issuer in this account" : err.detail);
    }
  }
  return out;
}

/** Seals every entry of a sealed batch, the sealed leaves signed in the signing pool. */
async function sealAll(entries: LogEntry[], sealer: Sealer): Promise<void> {
  const seals = entries.map((entry) => ({ entry, seal: prepareSeal(entry, canonicalFieldsOf(entry.row), sealer) }));
  const signatures = await signAll(
    seals.map(({ seal }) => ({ kid: sealer.signer.kid, privateKey: sealer.signer.privateKey, message: seal.message })),
  );
  for (const [i, { entry, seal }] of seals.entries()) sealedEntry(entry, seal, signatures[i]!);
}

const invalid = (problems: FieldError[]) => new AppError("validation_failed", "The request body failed validation; see errors.", problems);

/**
 * A batch is all sealed or all open. Its entries are logged side by side with one signing time,
 * so open entries, which name the account's issuer, would say whose the sealed ones beside them
 * are: a mix is refused (422, a pointer to the first sealed item), before anything is signed.
 */
function refuseMixedSealing(items: BatchItem[]): void {
  const first = items.findIndex((i) => i.sealed === true);
  const open = items.findIndex((i) => i.sealed !== true);
  if (first === -1 || open === -1) return;
  throw invalid([
    {
      pointer: `/items/${first}/sealed`,
      detail: `a batch is all sealed or all open: this item is sealed and item ${open} is not; send sealed items in a batch of their own`,
    },
  ]);
}

/** A field error thrown for one item, its pointer moved under /items/<i>; anything else rethrown. */
function itemProblems(err: unknown, i: number): FieldError[] {
  if (!(err instanceof AppError) || err.code !== "validation_failed" || !err.errors) throw err;
  return err.errors.map((e) => ({ pointer: `/items/${i}${e.pointer}`, detail: e.detail }));
}

/**
 * Signs every item and logs them as one group (a LogGroup): contiguous log indexes in the
 * items' order, answered only once all of them are in a committed checkpoint. Every item is
 * checked before anything is logged; any problem refuses the whole batch with 422 and a pointer
 * per problem (an unknown or suspended issuer included: a batch is one document, its items are
 * its fields), writing nothing. With an Idempotency-Key the answer commits with the entries and
 * a retry gets it back (replayed), as a mint does.
 */
export async function createAttestationBatch(opts: {
  tenantId: string;
  items: BatchItem[];
  idempotency?: { key: string; requestHash: string };
}): Promise<BatchResult> {
  const { tenantId, items } = opts;
  refuseMixedSealing(items);
  const signers = await signersOf(tenantId, items);
  const sealer = items.some((i) => i.sealed) ? await getSealer() : undefined;
  const problems: FieldError[] = [];
  // Dated and identified here; composed, signed and hashed where they are signed (attestAll).
  const jobs: AttestJob[] = [];
  const dates: Date[] = [];
  items.forEach((item, i) => {
    const signer = signers.get(item.issuer_id)!;
    if (typeof signer === "string") problems.push({ pointer: `/items/${i}/issuer_id`, detail: signer });
    try {
      const payloadJcs = canonicalPayload(item.payload);
      if (typeof signer === "string") return;
      const createdAt = attestationTime(signer, item.sealed ? sealer?.signer : undefined);
      dates.push(createdAt);
      jobs.push({
        id: newId(),
        issuerId: item.issuer_id,
        kid: signer.kid,
        privateKey: signer.privateKey,
        createdAt: iso(createdAt),
        payloadJcs,
      });
    } catch (err) {
      problems.push(...itemProblems(err, i));
    }
  });
  if (problems.length) throw invalid(problems);
  const { signatures, leafHashes, leafSizes } = await attestAll(jobs);
  // Job i is item i: any problem above refused the batch before a job was signed.
  const entries = jobs.map((j, i): LogEntry => {
    const tooLarge = leafTooLarge(leafSizes[i]!, j.payloadJcs);
    if (tooLarge) problems.push(...itemProblems(tooLarge, i));
    return {
      row: {
        id: j.id,
        tenantId,
        issuerId: j.issuerId,
        kid: j.kid,
        payload: j.payloadJcs,
        signature: signatures.slice(SIGNATURE_CHARS * i, SIGNATURE_CHARS * (i + 1)),
        createdAt: dates[i]!,
      },
      leafHash: leafHashes.subarray(32 * i, 32 * (i + 1)),
    };
  });
  if (problems.length) throw invalid(problems);
  if (sealer) await sealAll(entries, sealer);

  const views = (first: number) => entries.map((e, i) => viewOf(e, items[i]!.payload, first + i));
  const group: LogGroup = { entries };
  const idempotency = opts.idempotency && { tenantId, ...opts.idempotency };
  if (idempotency) {
    let answer: { attestations: AttestationView[] } | undefined;
    group.effects = {
      admit: async (w, batch, logIndex) => {
        await checkIdempotencyKey(w, batch, idempotency);
        answer = { attestations: views(logIndex) };
        holdIdempotencyKey(batch, idempotency, 201, answer);
      },
      write: (w) => storeIdempotentAnswer(w, idempotency, 201, answer, entries[0]!.row.createdAt),
      idempotencyKey: { tenantId, key: idempotency.key },
    };
  }
  try {
    return { attestations: views(await getSequencer().append(group)), replayed: false };
  } catch (err) {
    if (err instanceof IdempotentReplay) return { ...(err.body as { attestations: AttestationView[] }), replayed: true };
    throw err;
  }
}
