import type { Metadata } from "next";
import { requireViewer } from "@/server/pages/page-viewer";
import { DEFAULT_DAILY_QUOTA, DEFAULT_RATE_LIMIT_PER_MINUTE } from "@/server/domain/accounts";
import type { Scope } from "@/server/domain/accounts";
import { ApiKeyManager } from "../../_components/api-keys";
import { PageHeader } from "../../_components/ui";

export const metadata: Metadata = { title: "API keys" };

export default async function CreatorApiKeysPage() {
  const viewer = await requireViewer("/dashboard/api-keys", "consumer");
  return (
    <div>
      <PageHeader
        title="API keys"
        lead="Protect work from your own scripts and tools: a key mints protections for your account over the API, without your password."
      />
      <ApiKeyManager
        scopes={viewer.scopes as Scope[]}
        defaults={{ rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE, dailyQuota: DEFAULT_DAILY_QUOTA }}
        owner="your account"
        listTitle="Your keys"
      />
    </div>
  );
}
