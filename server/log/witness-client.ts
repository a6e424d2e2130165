import "server-only";
import { bytesToBase64 } from "@/lib/verify/encoding";
import { readCappedBody } from "../capped-body";

/** What a witness answered to add-checkpoint (C2SP tlog-witness). */
export type WitnessAnswer =
  /** 200: its note signature lines, to be verified by the caller. */
  | { kind: "cosigned"; lines: string }
  /** 409 text/x.tlog.size: the size of the latest checkpoint it cosigned for this log. */
  | { kind: "conflict"; size: number }
  /** 422: the checkpoint is not consistent with what the witness cosigned before (possible evidence of a fork). */
  | { kind: "inconsistent"; text: string }
  /** Anything else: a refusal (403, 404, 400…), an unreadable answer, or no answer at all. */
  | { kind: "failed"; detail: string };

const MAX_ANSWER_BYTES = 64 * 1024;

async function readCapped(res: Response): Promise<string> {
  const body = await readCappedBody(res, MAX_ANSWER_BYTES, () => new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`));
  return new TextDecoder("utf-8", { fatal: true }).decode(body);
}

/** The add-checkpoint request body: `old <M>`, the consistency proof lines, a blank line, the checkpoint. */
export function addCheckpointBody(oldSize: number, proof: readonly Uint8Array[], note: string): string {
  if (proof.length > 63) throw new RangeError("a consistency proof has at most 63 hashes");
  return `old ${oldSize}\n${proof.map((h) => `${bytesToBase64(h)}\n`).join("")}\n${note}`;
}

/** POSTs to `<submission prefix>/add-checkpoint`; never throws. */
export async function addCheckpoint(prefix: string, body: string, timeoutMs: number): Promise<WitnessAnswer> {
  const url = `${prefix.replace(/\/+$/, "")}/add-checkpoint`;
  try {
    const res = await fetch(url, {
      method: "POST",
      body,
      headers: { "content-type": "text/plain; charset=utf-8" },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
    const text = await readCapped(res);
    if (res.status === 200) return { kind: "cosigned", lines: text };
    if (res.status === 409 && (res.headers.get("content-type") ?? "").split(";")[0]!.trim() === "text/x.tlog.size") {
      const m = /^(0|[1-9][0-9]{0,15})\n$/.exec(text);
      if (m && Number.isSafeInteger(Number(m[1]))) return { kind: "conflict", size: Number(m[1]) };
      return { kind: "failed", detail: "409 with a malformed text/x.tlog.size body" };
    }
    if (res.status === 422) return { kind: "inconsistent", text };
    return { kind: "failed", detail: `HTTP ${res.status}${text ? `: ${text.trim().slice(0, 200)}` : ""}` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === "TimeoutError" ? `no answer within ${timeoutMs / 1000} s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { kind: "failed", detail: `unreachable: ${why}` };
  }
}
