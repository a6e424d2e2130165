import type { Metadata } from "next";
import { requireViewer } from "@/server/pages/page-viewer";
import { DEFAULT_DAILY_QUOTA, DEFAULT_RATE_LIMIT_PER_MINUTE } from "@/server/domain/accounts";
import type { Scope } from "@/server/domain/accounts";
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
      <p className="mb-6 text-sm text-stone-700">
        Every endpoint, with its parameters, answers and errors, is in the {/* A route handler, not a page of this app: a plain link. */}
        <a className="font-medium text-teal-800 underline" href="/docs">
          API reference
        </a>{" "}
        (try requests there with a key), generated from the{" "}
        <a className="font-medium text-teal-800 underline" href="/v1/openapi.json">
          OpenAPI document
        </a>
        .
      </p>
      <ApiKeyManager
        scopes={viewer.scopes as Scope[]}
        defaults={{ rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE, dailyQuota: DEFAULT_DAILY_QUOTA }}
        owner={viewer.tenant.name}
      />
    </div>
  );
}
