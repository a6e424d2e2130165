// Set-up for the visitor-page specs (verify, share, portfolio): real files written to disk,
// minted through REST with the creator's API key, as an integrator would.
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "@playwright/test";

const baseURL = (process.env.HALLMARK_TEST_BASE_URLS ?? "").split(",")[0]!;

export interface Minted {
  protection_id: string;
  attestation_id: string;
  verify_url: string;
  share_url: string;
  /** SHA-256 hex of the file on disk. */
  hash: string;
  /** The file on disk whose hash was minted. */
  path: string;
  title: string;
  description: string;
  fileName: string;
}

export const tempDir = () => {
  const dir = join(tmpdir(), `hallmark-visitor-${randomUUID().slice(0, 8)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** Writes a file with unique content and returns its path and SHA-256 hex. */
export function writeFile(dir: string, name: string, content = `file ${name} ${randomUUID()}\n`) {
  const path = join(dir, name);
  const bytes = Buffer.from(content);
  writeFileSync(path, bytes);
  return { path, hash: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
}

export async function mint(
  apiKey: string,
  dir: string,
  opts: { title: string; visibility: "public" | "private"; fileName: string; category?: string; description?: string },
): Promise<Minted> {
  const file = writeFile(dir, opts.fileName);
  const description = opts.description ?? `About ${opts.title}`;
  const res = await fetch(`${baseURL}/v1/consumer/mint`, {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json" },
    body: JSON.stringify({
      content_hash: file.hash,
      title: opts.title,
      description,
      visibility: opts.visibility,
      file_name: opts.fileName,
      content_type: "text/plain",
      file_size: file.size,
      category: opts.category ?? "writing",
    }),
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return { ...JSON.parse(text), hash: file.hash, path: file.path, title: opts.title, description, fileName: opts.fileName };
}

/** The real proof bundle, as the server publishes it. */
export async function fetchBundle(protectionId: string): Promise<any> {
  const res = await fetch(`${baseURL}/v1/protections/${protectionId}/proof-bundle`);
  expect(res.status).toBe(200);
  return res.json();
}
