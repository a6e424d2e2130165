import type { Metadata } from "next";
import Link from "next/link";
import { orNotFound, pageCaller, requireViewer } from "@/server/pages/page-viewer";
import { formatDateTime } from "../../../_components/api-keys-format";
import { CheckList, Verdict } from "../../../_components/verification-checks";
import { Breadcrumbs, Card, ConsoleEyebrow, LinkButton, Mono, PageHeader, textLink } from "../../../_components/ui";

export const metadata: Metadata = { title: "Verification · Console" };

export default async function ConsoleVerificationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const viewer = await requireViewer(`/console/verifications/${encodeURIComponent(id)}`, "organization");
  const v = await orNotFound((await pageCaller()).verifications.get({ id }));
  return (
    <div className="space-y-8">
      <Breadcrumbs trail={[{ label: "Verifications", href: "/console/verifications" }, { label: formatDateTime(v.created_at) }]} />
      <div>
        <ConsoleEyebrow org={viewer.tenant.name} />
        <PageHeader
          title="Verification"
          lead={
            <>
              Recorded <time dateTime={v.created_at}>{formatDateTime(v.created_at)}</time>, as it was answered then.
            </>
          }
          actions={
            <LinkButton href={v.pack ? `/console/verifications?pack=${v.pack.id}` : "/console/verifications"} variant="secondary">
              Run another
            </LinkButton>
          }
        />
      </div>
      <Verdict result={v.result} checks={v.checks} />
      <Card aria-labelledby="verification-facts">
        <h2 id="verification-facts" className="sr-only">
          What was verified
        </h2>
        <dl className="grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-stone-600">Pack</dt>
            <dd className="mt-1 break-words">
              {v.pack ? (
                <>
                  <Link className={textLink} href={`/console/packs/${v.pack.id}`}>
                    {v.pack.name}
                  </Link>{" "}
                  (revision {v.pack.revision})
                </>
              ) : (
                "None: cryptographic checks only"
              )}
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">Source</dt>
            <dd className="mt-1">{v.source === "bundle" ? "A pasted proof bundle" : "An attestation of this organisation"}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-stone-600">{v.source === "bundle" ? "Attestation id the bundle names" : "Attestation id"}</dt>
            <dd className="mt-1">{v.attestation_id ? <Mono>{v.attestation_id}</Mono> : "None"}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-stone-600">Content hash sent</dt>
            <dd className="mt-1">{v.content_hash ? <Mono>{`sha256:${v.content_hash}`}</Mono> : "None"}</dd>
          </div>
          {v.protection_id ? (
            <div className="min-w-0">
              <dt className="text-stone-600">Creator&rsquo;s protection</dt>
              <dd className="mt-1">
                <Link className={textLink} href={`/verify/${v.protection_id}`}>
                  {v.protection_id}
                </Link>
              </dd>
            </div>
          ) : null}
          <div className="min-w-0">
            <dt className="text-stone-600">Verification id</dt>
            <dd className="mt-1">
              <Mono>{v.id}</Mono>
            </dd>
          </div>
        </dl>
      </Card>
      <section aria-labelledby="checks-heading" className="space-y-4">
        <h2 id="checks-heading" className="text-lg font-semibold">
          Checks
        </h2>
        <CheckList checks={v.checks} />
      </section>
    </div>
  );
}
