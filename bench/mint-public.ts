// Public protections minted through the API, for the benches that measure reads over them.
import { randomBytes } from "node:crypto";

export interface MintedPublic {
  /** In minting order, index for index: each protection's id, content hash, and PDQ hash (when fingerprinted). */
  ids: string[];
  contentHashes: string[];
  pdqHashes: string[];
}

/** Mints `n` public protections of fresh content hashes, 10 at a time; `fingerprinted`: each with a random PDQ hash. */
export async function mintPublic(url: string, key: string, n: number, opts: { fingerprinted?: boolean } = {}): Promise<MintedPublic> {
  const minted: MintedPublic = { ids: [], contentHashes: [], pdqHashes: [] };
  const one = async () => {
    const contentHash = randomBytes(32).toString("hex");
    const pdq = randomBytes(32).toString("hex");
    const res = await fetch(`${url}/v1/consumer/mint`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({
        content_hash: contentHash,
        title: "bench",
        visibility: "public",
        ...(opts.fingerprinted ? { fingerprints: [{ alg: "pdq", hash: pdq, quality: 90 }] } : {}),
      }),
    });
    if (res.status !== 201) throw new Error(`mint answered ${res.status}: ${await res.text()}`);
    minted.ids.push(((await res.json()) as { protection_id: string }).protection_id);
    minted.contentHashes.push(contentHash);
    if (opts.fingerprinted) minted.pdqHashes.push(pdq);
  };
  for (let i = 0; i < n; i += 10) await Promise.all(Array.from({ length: Math.min(10, n - i) }, one));
  return minted;
}
