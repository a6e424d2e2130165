import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>;
/** The answer of consumer.mint: protection_id, verify_url, share_url, protected_at, content_hash… */
export type MintView = Outputs["consumer"]["mint"]["protection"];
export type ProtectionsPage = Outputs["consumer"]["protections"];
export type ProtectionItem = ProtectionsPage["items"][number];
export type UsageView = Outputs["consumer"]["usage"];
