import type { Metadata } from "next";
import { requireViewer } from "@/server/auth/page-viewer";
import { DEFAULT_DAILY_QUOTA, DEFAULT_RATE_LIMIT_PER_MINUTE } from "@/server/domain/api-keys";
import type { Scope } from "@/server/domain/scopes";
import { ApiKeyManager } from "../_components/api-keys";
import { ConsoleEyebrow, PageHeader } from "../_components/ui";

export const metadata: Metadata = { title: "API keys · Console" };

export default async function ConsoleApiKeysPage() {
  const viewer = await requireViewer("/console", "organization");
  return (
    <div>
      <ConsoleEyebrow org={viewer.tenant.name} />
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
