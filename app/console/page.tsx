import type { Metadata } from "next";
import { requireViewer } from "@/server/auth/page-viewer";
import { DEFAULT_DAILY_QUOTA, DEFAULT_RATE_LIMIT_PER_MINUTE } from "@/server/domain/api-keys";
import type { Scope } from "@/server/domain/scopes";
import { ApiKeyManager } from "../_components/api-keys";
import { PageHeader } from "../_components/ui";

export const metadata: Metadata = { title: "API keys · Console" };

export default async function ConsoleApiKeysPage() {
  const viewer = await requireViewer("/console", "organization");
  return (
    <div>
      <p className="mb-1 text-sm font-medium text-teal-800">{viewer.tenant.name} · Organisation console</p>
      <PageHeader
        title="API keys"
        lead="Your systems call the Hallmark API with these keys: to sign attestations with your issuers, fetch proof bundles and manage keys."
      />
      <ApiKeyManager
        scopes={viewer.scopes as Scope[]}
        defaults={{ rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE, dailyQuota: DEFAULT_DAILY_QUOTA }}
        owner={viewer.tenant.name}
      />
    </div>
  );
}
