import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "../config";
import { makePrivateDir } from "../private-files.mjs";

let master: Buffer | undefined;

function decode(value: string): Buffer {
  return /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
}

/**
 * The 32-byte master key: HALLMARK_MASTER_KEY, or `<data dir>/master.key`, created on first
 * use with mode 0600 (an exclusive create, so two processes starting together agree on one).
 * Several instances sharing a PostgreSQL database must all be given the same key.
 */
export function getMasterKey(): Buffer {
  if (master) return master;
  const { masterKey, dataDir } = getConfig();
  if (masterKey) return (master = decode(masterKey));
  const file = path.join(dataDir, "master.key");
  makePrivateDir(dataDir);
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64") + "\n", { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const key = decode(fs.readFileSync(file, "utf8").trim());
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
  return (master = key);
}

/** A key for one purpose only (HKDF-SHA-256, domain-separated by label). */
export function deriveKey(label: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", getMasterKey(), Buffer.alloc(0), `hallmark/v1/${label}`, 32));
}
