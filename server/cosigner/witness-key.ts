import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "../config";
import { deriveKey } from "../crypto/master-key";
import { getDb } from "../db";
import { logger } from "../observability/logger.mjs";
import { makePrivateDir, PRIVATE_FILE_MODE } from "../private-files.mjs";

/** The 32-byte seeds of this instance's two witness keys. */
export interface WitnessSeeds {
  ed25519: Buffer;
  mlDsa44: Buffer;
}

const HEADER =
  "# Hallmark's witness keys (C2SP tlog-cosignature): each key's 32-byte seed, base64. Owner-only.\n" +
  "# One witness, one state: never give this file to a second environment (docs/log.md).\n";

export function formatSeeds(seeds: WitnessSeeds): string {
  return `${HEADER}ed25519 ${seeds.ed25519.toString("base64")}\nml-dsa-44 ${seeds.mlDsa44.toString("base64")}\n`;
}

/** Reads a witness key file; throws naming the file when it is not one. */
export function parseSeeds(text: string, file: string): WitnessSeeds {
  const seed = (name: string) => {
    const m = new RegExp(`^${name} ([A-Za-z0-9+/]{43}=)$`, "m").exec(text);
    const bytes = m ? Buffer.from(m[1]!, "base64") : null;
    if (bytes?.length !== 32) throw new Error(`${file}: no "${name} <32 bytes, base64>" line`);
    return bytes;
  };
  return { ed25519: seed("ed25519"), mlDsa44: seed("ml-dsa-44") };
}

/**
 * This instance's witness key seeds, from HALLMARK_WITNESS_KEY_FILE (default <data dir>/witness.key),
 * made owner-only on first start. They are the witness's own, not derived from the master key, so
 * a copy of the database or of the master key elsewhere is another witness, never this one with a
 * second state. Made once (an exclusive create, so processes starting together agree):
 *
 * - with the keys derived from the master key, as witnesses were before they had a file, when the
 *   database holds records no witness key is bound to yet (an instance that cosigned with those
 *   keys, upgraded): the logs that pinned it keep working;
 * - with fresh random seeds otherwise.
 */
export async function loadWitnessSeeds(): Promise<WitnessSeeds> {
  const file = getConfig().witnessKeyFile;
  if (!fs.existsSync(file)) {
    const unbound = await getDb().read.witnessedLog.count({ where: { witnessVkeys: null } });
    const seeds: WitnessSeeds =
      unbound > 0
        ? { ed25519: deriveKey("witness/ed25519"), mlDsa44: deriveKey("witness/ml-dsa-44") }
        : { ed25519: crypto.randomBytes(32), mlDsa44: crypto.randomBytes(32) };
    makePrivateDir(path.dirname(file));
    try {
      fs.writeFileSync(file, formatSeeds(seeds), { flag: "wx", mode: PRIVATE_FILE_MODE });
      logger.info(
        { file, derived: unbound > 0 },
        unbound > 0
          ? "witness key: the keys this instance cosigned with (derived from the master key) written to its file"
          : "witness key: new keys made",
      );
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return parseSeeds(fs.readFileSync(file, "utf8"), file);
}
