// What the proof check downloads, as any other client would: the bundle, the log's key and
// policy, with a failed download's problem code and Retry-After kept for the check to read.
import { parseVerifierKey } from "@/lib/verify";
import { bytesToHex } from "@/lib/verify/encoding";
import { logKeyForOrigin } from "@/lib/verify/log-key";

export interface LogInfo {
  origin?: string;
  public_key?: string;
  key_id?: string;
  verifier_key?: string;
  /** Every log of the chain a key rotation made; an entry is in the one its checkpoint's origin names. */
  shards?: { origin?: string; verifier_key?: string }[];
  timestamping?: { certificate_pem?: string; interval_seconds?: number } | null;
}

/** The key of the log (shard) that holds the bundle's entry: the one its checkpoint's origin names, else the current one. */
export const logKeyFor = (bundle: unknown, log: LogInfo | null) =>
  logKeyForOrigin(log, (bundle as { signed_tree_head?: { origin?: unknown } } | null)?.signed_tree_head?.origin);

/** A download that failed: its problem code, and Retry-After in seconds, when the answer had them. */
export class DownloadFailed extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

export async function fetchText(url: string, what: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { cache: "no-store", headers: { accept: "application/json" } });
  } catch {
    throw new DownloadFailed(`could not download the ${what} (network error)`);
  }
  if (!res.ok) {
    const code = await res
      .json()
      .then((p: { code?: unknown }) => (typeof p.code === "string" ? p.code : null))
      .catch(() => null);
    const retryAfter = Number(res.headers.get("retry-after"));
    throw new DownloadFailed(`could not download the ${what} (HTTP ${res.status})`, code, Number.isFinite(retryAfter) ? retryAfter : null);
  }
  return res.text();
}

/** The log key's origin and key ID as the page shows them, or null when the log published none that parses. */
export function keyIdentity(log: LogInfo | null): { origin: string; keyId: string } | null {
  if (!log?.verifier_key) return null;
  try {
    const v = parseVerifierKey(log.verifier_key.trim());
    return { origin: v.name, keyId: bytesToHex(v.keyId) };
  } catch {
    return null;
  }
}
