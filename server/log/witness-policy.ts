import "server-only";
import fs from "node:fs";
import { parsePolicy, type Policy } from "@/lib/verify";
import { getConfig } from "../config";

type PolicyState = { policy: Policy | null };
const globalRef = globalThis as unknown as { __hallmarkWitnessPolicy?: PolicyState };

/** The configured witness policy (parsed once; a bad file fails the start), or null. */
export function witnessPolicy(): Policy | null {
  if (!globalRef.__hallmarkWitnessPolicy) {
    const file = getConfig().witnessPolicyFile;
    let policy: Policy | null = null;
    if (file) {
      try {
        policy = parsePolicy(fs.readFileSync(file, "utf8"));
      } catch (err) {
        throw new Error(`HALLMARK_WITNESS_POLICY (${file}): ${(err as Error).message}`);
      }
    }
    globalRef.__hallmarkWitnessPolicy = { policy };
  }
  return globalRef.__hallmarkWitnessPolicy.policy;
}
