"use client";
// API-key management, shared by the organisation console (/console) and a creator's dashboard
// (/dashboard/api-keys): list, create (the secret is shown once), revoke after a confirmation.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import type { Scope } from "@/server/domain/accounts";
import { errorInfo, useTRPC } from "../_trpc/client";
import { CreateKeyDialog } from "./api-key-create-dialog";
import { KeyList, type ApiKey } from "./api-key-list";
import { RevokeKeyDialog } from "./api-key-revoke-dialog";
import { ApiKeySecret } from "./api-key-secret";
import { Button, EmptyState, Spinner } from "./ui";
import { LoadError } from "./load-error";

export interface ApiKeyManagerProps {
  /** The scopes the signed-in user holds: a key can be given these and no others. */
  scopes: readonly Scope[];
  defaults: { rateLimitPerMinute: number; dailyQuota: number };
  /** Who the keys act for, in the page's words ("Acme News", "your account"). */
  owner: string;
  /** The heading above the list; "Keys of <owner>" by default. */
  listTitle?: string;
}

export function ApiKeyManager({ scopes, defaults, owner, listTitle }: ApiKeyManagerProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.apiKeys.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ id: string; name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const secretRef = useRef<HTMLHeadingElement>(null);
  const canWrite = scopes.includes("api_keys:write");

  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: ({ id }) => {
        queryClient.setQueryData(trpc.apiKeys.list.queryKey(), (old) =>
          old?.map((k) => (k.id === id ? { ...k, status: "REVOKED" as const } : k)),
        );
        setRevoking(null);
        void queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
      },
    }),
  );

  function onCreated(key: { id: string; name: string; key: string }) {
    setCreating(false);
    setCreated({ id: key.id, name: key.name, secret: key.key });
    void queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
  }

  const createButton = canWrite ? (
    <Button onClick={() => setCreating(true)}>
      <span aria-hidden>+</span> Create API key
    </Button>
  ) : null;

  return (
    <div className="space-y-6">
      {created ? <ApiKeySecret name={created.name} secret={created.secret} headingRef={secretRef} onDone={() => setCreated(null)} /> : null}

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
          {listTitle ?? `Keys of ${owner}`}
        </h2>
        {list.data && list.data.length > 0 ? createButton : null}
      </div>

      {list.isPending ? (
        <Spinner label="Loading your API keys…" />
      ) : list.isError ? (
        <LoadError title="Your API keys could not be loaded" error={list.error} retry={list.refetch} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No API keys yet" action={createButton}>
          A key lets a script or a server call the Hallmark API for {owner}. Give each integration its own key, with only the scopes it
          needs.
        </EmptyState>
      ) : (
        <KeyList
          keys={list.data}
          highlight={created?.id ?? null}
          canWrite={canWrite}
          onRevoke={(k) => {
            revoke.reset();
            setRevoking(k);
          }}
        />
      )}

      {canWrite ? (
        <CreateKeyDialog
          open={creating}
          scopes={scopes}
          defaults={defaults}
          onClose={() => setCreating(false)}
          onCreated={onCreated}
          secretRef={secretRef}
          showingSecret={created !== null}
        />
      ) : null}

      <RevokeKeyDialog
        revoking={revoking}
        pending={revoke.isPending}
        error={revoke.isError ? errorInfo(revoke.error).message : null}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        onCancel={() => setRevoking(null)}
        returnFocus={headingRef}
      />
    </div>
  );
}
