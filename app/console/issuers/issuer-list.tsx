"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useRef, useState, type FormEvent } from "react";
import { Modal } from "../../_components/api-keys-dialog";
import { DialogActions } from "../../_components/dialog-actions";
import { formatDate, formatDateTime } from "../../_components/api-keys-format";
import { useFieldErrors } from "../../_components/field-errors";
import { Alert, Button, Card, EmptyState, Field, Input, Mono, Spinner, textLink } from "../../_components/ui";
import { useTRPC } from "../../_trpc/client";
import { IssuerStatusBadge, TrustBadge } from "./issuer-badges";
import { LoadError } from "@/app/_components/load-error";

export function IssuerList({ canWrite }: { canWrite: boolean }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.issuers.list.queryOptions());
  const [creating, setCreating] = useState(false);

  const createButton = canWrite ? (
    <Button onClick={() => setCreating(true)}>
      <span aria-hidden>+</span> Create issuer
    </Button>
  ) : null;

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 className="text-lg font-semibold">Your issuers</h2>
        {list.data && list.data.items.length > 0 ? createButton : null}
      </div>
      {list.isPending ? (
        <Spinner label="Loading your issuers…" />
      ) : list.isError ? (
        <LoadError title="Your issuers could not be loaded" error={list.error} retry={list.refetch} />
      ) : list.data.items.length === 0 ? (
        <EmptyState title="No issuers yet" action={createButton}>
          Create an issuer for each publication or service that signs content, e.g. <Mono>news.example.org</Mono>. It gets a signing key at
          once.
        </EmptyState>
      ) : (
        <>
          <div className="hidden overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm md:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Issuers, newest first</caption>
              <thead className="bg-stone-50 text-xs uppercase tracking-wide text-stone-700">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Name
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Domain
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Trust level
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Created
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-200">
                {list.data.items.map((i) => (
                  <tr key={i.id}>
                    <th scope="row" className="px-4 py-3">
                      <Link className={`${textLink} break-words`} href={`/console/issuers/${i.id}`}>
                        {i.name}
                      </Link>
                    </th>
                    <td className="px-4 py-3">
                      <Mono>{i.domain}</Mono>
                    </td>
                    <td className="px-4 py-3">
                      <IssuerStatusBadge status={i.status} />
                    </td>
                    <td className="px-4 py-3">
                      <TrustBadge level={i.trust_level} />
                    </td>
                    <td className="whitespace-nowrap px-4 py-3">
                      <time dateTime={i.created_at} title={formatDateTime(i.created_at)}>
                        {formatDate(i.created_at)}
                      </time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="space-y-3 md:hidden" aria-label="Issuers, newest first">
            {list.data.items.map((i) => (
              <li key={i.id}>
                <Card className="!p-4">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <h3 className="break-words">
                        <Link className={textLink} href={`/console/issuers/${i.id}`}>
                          {i.name}
                        </Link>
                      </h3>
                      <Mono className="text-stone-700">{i.domain}</Mono>
                    </div>
                    <IssuerStatusBadge status={i.status} />
                  </div>
                  <p className="mt-3 flex flex-wrap items-center gap-2 text-sm text-stone-700">
                    <TrustBadge level={i.trust_level} /> created <time dateTime={i.created_at}>{formatDate(i.created_at)}</time>
                  </p>
                </Card>
              </li>
            ))}
          </ul>
        </>
      )}
      {canWrite ? <CreateIssuerDialog open={creating} onClose={() => setCreating(false)} /> : null}
    </div>
  );
}

function CreateIssuerDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const formId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState("");
  const [domain, setDomain] = useState("");
  const { errors, clear, check, fromServer, generalError, describe } = useFieldErrors(formId);
  const create = useMutation(trpc.issuers.create.mutationOptions());

  function close() {
    if (create.isPending) return;
    setName("");
    setDomain("");
    clear();
    create.reset();
    onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!name.trim()) found.name = "Give the issuer a name, e.g. the publication's.";
    if (!domain.trim()) found.domain = "Enter the domain it publishes under, e.g. news.example.org.";
    if (!check(found)) return;
    try {
      const issuer = await create.mutateAsync({ name: name.trim(), domain: domain.trim() });
      queryClient.setQueryData(trpc.issuers.get.queryKey({ id: issuer.id }), issuer);
      void queryClient.invalidateQueries({ queryKey: trpc.issuers.list.queryKey() });
      router.push(`/console/issuers/${issuer.id}?created=1`);
    } catch (err) {
      fromServer(err);
    }
  }

  const serverError = generalError(create.error);

  return (
    <Modal
      open={open}
      onClose={close}
      title="Create an issuer"
      description="It starts PENDING at trust level BASIC, with a fresh Ed25519 signing key."
      busy={create.isPending || create.isSuccess}
      initialFocus={nameRef}
    >
      <form onSubmit={submit} noValidate className="space-y-5">
        {serverError ? <Alert title="The issuer was not created">{serverError}</Alert> : null}
        <Field label="Name" id={`${formId}-name`} error={errors.name} hint="Shown to people who verify what it signs.">
          <Input
            ref={nameRef}
            id={`${formId}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={200}
            autoComplete="organization"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describe("name")}
          />
        </Field>
        <Field label="Domain" id={`${formId}-domain`} error={errors.domain} hint="A host name such as news.example.org.">
          <Input
            id={`${formId}-domain`}
            value={domain}
            onChange={(e) => setDomain(e.target.value)}
            inputMode="url"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={errors.domain ? true : undefined}
            aria-describedby={describe("domain")}
          />
        </Field>
        <DialogActions onCancel={close} label="Create issuer" busyLabel="Creating…" busy={create.isPending || create.isSuccess} ruled />
      </form>
    </Modal>
  );
}
