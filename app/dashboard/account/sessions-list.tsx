"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorInfo, useTRPC } from "../../_trpc/client";
import { formatDateTime } from "../../_components/api-keys-format";
import { LoadError } from "../../_components/load-error";
import { Alert, Badge, Button, Mono, Spinner } from "../../_components/ui";

/** The account's live sessions, newest first: where and when each was opened; end one, or all but this one. */
export function SessionsList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.account.sessions.queryOptions());
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.account.sessions.queryKey() });
  const endOne = useMutation(trpc.account.endSession.mutationOptions({ onSuccess: refresh }));
  const endOthers = useMutation(trpc.account.endOtherSessions.mutationOptions({ onSuccess: refresh }));

  if (list.isPending) return <Spinner label="Loading your sessions…" />;
  if (list.isError) return <LoadError title="Your sessions could not be loaded" error={list.error} retry={list.refetch} />;

  const others = list.data.items.filter((s) => !s.current).length;
  const failure = endOne.error ?? endOthers.error;
  return (
    <div className="space-y-4">
      {failure ? <Alert title="The session was not ended">{errorInfo(failure).message}</Alert> : null}
      {endOne.isSuccess ? <Alert tone="success">The session is ended: whoever used it is logged out.</Alert> : null}
      {endOthers.isSuccess ? (
        <Alert tone="success">
          {endOthers.data.sessions_ended === 1 ? "1 other session ended." : `${endOthers.data.sessions_ended} other sessions ended.`}
        </Alert>
      ) : null}
      <ul className="divide-y divide-stone-200 rounded-xl border border-stone-200" aria-label="Sessions, newest first">
        {list.data.items.map((s) => (
          <li key={s.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0 space-y-1 text-sm">
              <p id={`session-${s.id}`} className="flex flex-wrap items-center gap-2 font-medium text-stone-900">
                <span>
                  Logged in <time dateTime={s.created_at}>{formatDateTime(s.created_at)}</time>
                </span>
                {s.current ? <Badge tone="info">This session</Badge> : null}
              </p>
              <p className="text-stone-700">
                From <Mono>{s.client_address ?? "an unknown address"}</Mono>
              </p>
              <p className="break-words text-stone-700">{s.user_agent ?? "Unknown browser or client"}</p>
              <p className="text-xs text-stone-600">
                Ends by itself <time dateTime={s.expires_at}>{formatDateTime(s.expires_at)}</time>
              </p>
            </div>
            {s.current ? null : (
              <Button
                variant="secondary"
                className="shrink-0"
                aria-describedby={`session-${s.id}`}
                disabled={endOne.isPending && endOne.variables?.id === s.id}
                onClick={() => {
                  endOthers.reset();
                  endOne.mutate({ id: s.id });
                }}
              >
                {endOne.isPending && endOne.variables?.id === s.id ? "Ending…" : "End session"}
              </Button>
            )}
          </li>
        ))}
      </ul>
      <Button
        variant="secondary"
        disabled={others === 0 || endOthers.isPending}
        onClick={() => {
          endOne.reset();
          endOthers.mutate();
        }}
      >
        {endOthers.isPending ? "Ending…" : "End every other session"}
      </Button>
      {others === 0 ? <p className="text-sm text-stone-700">This is your only open session.</p> : null}
    </div>
  );
}
