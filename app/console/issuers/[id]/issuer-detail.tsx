"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useRef, useState } from "react";
import type { AppRouter } from "@/server/api/root";
import { ConfirmDialog } from "../../../_components/api-keys-dialog";
import { formatDateTime } from "../../../_components/api-keys-format";
import { CopyButton } from "../../../_components/copy-button";
import { Alert, Badge, Breadcrumbs, Button, Card, ConsoleEyebrow, cx, Mono, PageHeader } from "../../../_components/ui";
import { errorInfo, useTRPC } from "../../../_trpc/client";
import { IssuerStatusBadge, TrustBadge } from "../issuer-badges";

type Issuer = inferRouterOutputs<AppRouter>["issuers"]["get"];
type SigningKey = Issuer["keys"][number];

export function IssuerDetail({
  initial,
  orgName,
  canRotate,
  justCreated,
}: {
  initial: Issuer;
  orgName: string;
  canRotate: boolean;
  justCreated: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const issuerQuery = useQuery(trpc.issuers.get.queryOptions({ id: initial.id }, { initialData: initial }));
  const issuer = issuerQuery.data;
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<string | null>(null);
  const keysHeading = useRef<HTMLHeadingElement>(null);

  const rotate = useMutation(
    trpc.issuers.rotateKey.mutationOptions({
      onSuccess: async (key) => {
        await queryClient.invalidateQueries({ queryKey: trpc.issuers.get.queryKey({ id: initial.id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.issuers.list.queryKey() });
        setRotated(key.kid);
        setConfirming(false);
      },
    }),
  );

  const active = issuer.keys.filter((k) => k.status === "ACTIVE");
  const keys = [...issuer.keys].sort((a, b) =>
    a.status === b.status ? b.not_before.localeCompare(a.not_before) : a.status === "ACTIVE" ? -1 : 1,
  );

  return (
    <div className="space-y-8">
      <Breadcrumbs trail={[{ label: "Issuers", href: "/console/issuers" }, { label: issuer.name }]} />

      <div>
        <ConsoleEyebrow org={orgName} />
        <PageHeader
          title={issuer.name}
          lead={<Mono className="text-base">{issuer.domain}</Mono>}
          actions={
            canRotate ? (
              <Button
                variant="secondary"
                onClick={() => {
                  rotate.reset();
                  setConfirming(true);
                }}
              >
                Rotate key
              </Button>
            ) : null
          }
        />
        {justCreated && !rotated ? (
          <Alert tone="success" title="Issuer created">
            It signs with the key below. Publish its public key, or point verifiers to the proof bundles, which carry it.
          </Alert>
        ) : null}
        {rotated ? (
          <Alert tone="success" title="Key rotated">
            The new key <Mono>{rotated}</Mono> signs from now on. The old key is RETIRED and still verifies everything it signed.
          </Alert>
        ) : null}
      </div>

      <Card aria-labelledby="issuer-facts">
        <h2 id="issuer-facts" className="sr-only">
          About this issuer
        </h2>
        <dl className="grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-stone-600">Status</dt>
            <dd className="mt-1">
              <IssuerStatusBadge status={issuer.status} />
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">Trust level</dt>
            <dd className="mt-1">
              <TrustBadge level={issuer.trust_level} />
            </dd>
          </div>
          <div>
            <dt className="text-stone-600">Created</dt>
            <dd className="mt-1">
              <time dateTime={issuer.created_at}>{formatDateTime(issuer.created_at)}</time>
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-stone-600">Issuer id</dt>
            <dd className="mt-1">
              <Mono>{issuer.id}</Mono>
            </dd>
          </div>
        </dl>
      </Card>

      <section aria-labelledby="keys-heading" className="space-y-4">
        <div>
          <h2 id="keys-heading" ref={keysHeading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
            Signing keys
          </h2>
          <p className="mt-1 text-sm text-stone-700">
            {active.length === 1 ? "One key signs; " : `${active.length} keys sign; `}
            retired keys stay published so that what they signed still verifies.
          </p>
        </div>
        {issuerQuery.isError ? <Alert title="Could not refresh the keys">{errorInfo(issuerQuery.error).message}</Alert> : null}
        <ul className="space-y-4" aria-label="Signing keys, the signing key first">
          {keys.map((k) => (
            <li key={k.kid}>
              <KeyCard signingKey={k} fresh={k.kid === rotated} />
            </li>
          ))}
        </ul>
      </section>

      <ConfirmDialog
        open={confirming}
        tone="primary"
        title="Rotate the signing key?"
        description={
          <>
            <p>A new Ed25519 key signs everything {issuer.name} signs from now on.</p>
            <p className="mt-2">
              The current key becomes RETIRED. It stays published and valid for verifying everything it already signed, so no existing
              attestation or proof bundle breaks. Requests already under way may still sign with it for a few minutes.
            </p>
          </>
        }
        confirmLabel="Rotate key"
        pendingLabel="Rotating…"
        pending={rotate.isPending}
        error={rotate.isError ? errorInfo(rotate.error).message : null}
        onConfirm={() => rotate.mutate({ id: issuer.id })}
        onCancel={() => setConfirming(false)}
        returnFocus={keysHeading}
      />
    </div>
  );
}

function KeyCard({ signingKey: k, fresh }: { signingKey: SigningKey; fresh: boolean }) {
  const pemId = `pem-${k.kid}`;
  return (
    <Card className={cx("!p-4 sm:!p-5", fresh && "border-teal-600", k.status === "RETIRED" && "bg-stone-50")}>
      <div className="flex flex-wrap items-center gap-2">
        {k.status === "ACTIVE" ? <Badge tone="success">ACTIVE</Badge> : <Badge tone="neutral">RETIRED</Badge>}
        <Badge>{k.algorithm}</Badge>
        {fresh ? <Badge tone="info">New</Badge> : null}
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-stone-600">Key id (kid)</dt>
        <dd className="min-w-0">
          <Mono className="text-stone-900">{k.kid}</Mono>
        </dd>
        <dt className="text-stone-600">Valid from</dt>
        <dd>
          <time dateTime={k.not_before}>{formatDateTime(k.not_before)}</time>
        </dd>
        <dt className="text-stone-600">Expires</dt>
        <dd>
          <time dateTime={k.expires_at}>{formatDateTime(k.expires_at)}</time>
        </dd>
      </dl>
      <details className="group mt-4 rounded-lg border border-stone-200 bg-white">
        <summary className="flex cursor-pointer items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm font-medium text-stone-900 hover:bg-stone-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-teal-700">
          Public key (PEM)
          <span aria-hidden className="text-stone-600 transition-transform group-open:rotate-90">
            ›
          </span>
        </summary>
        <div className="border-t border-stone-200 p-3">
          <pre
            id={pemId}
            className="whitespace-pre-wrap break-all rounded-md bg-stone-900 p-3 font-mono text-xs leading-relaxed text-stone-50"
          >
            {k.public_key.trim()}
          </pre>
          <div className="mt-2 flex justify-end">
            <CopyButton value={k.public_key} label="Copy public key" />
          </div>
        </div>
      </details>
    </Card>
  );
}
