import "server-only";
import { processWide } from "../process-wide";
import fs from "node:fs";
import { parsePolicy, type Policy } from "@/lib/verify";
import { getConfig } from "../config";

/** The configured witness policy (parsed once; a bad file fails the start), or null. */
export function witnessPolicy(): Policy | null {
  return processWide("witness-policy", () => ({ policy: readPolicy() })).policy;
}

function readPolicy(): Policy | null {
  const file = getConfig().witnessPolicyFile;
  if (!file) return null;
  try {
    return parsePolicy(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`HALLMARK_WITNESS_POLICY (${file}): ${(err as Error).message}`);
  }
}
