import "server-only";
import { readEnv, type HallmarkEnv } from "./env.mjs";

let cached: HallmarkEnv | undefined;

/** The validated environment (server/env.mjs), read once per process. */
export function getConfig(): HallmarkEnv {
  cached ??= readEnv();
  return cached;
}
