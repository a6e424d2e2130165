// The list of API keys: a table on wide screens, stacked cards on a phone.
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { formatCount, formatDate, formatDateTime, sortScopes } from "./api-keys-format";
import { Badge, Button, Card, Mono, cx } from "./ui";

export type ApiKey = inferRouterOutputs<AppRouter>["apiKeys"]["list"][number];

function StatusBadge({ status }: { status: ApiKey["status"] }) {
  return status === "ACTIVE" ? <Badge tone="success">ACTIVE</Badge> : <Badge tone="danger">REVOKED</Badge>;
}

function Scopes({ scopes }: { scopes: readonly string[] }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Scopes">
      {sortScopes(scopes).map((s) => (
        <li key={s} className="rounded-md bg-stone-100 px-1.5 py-0.5 font-mono text-xs text-stone-800">
          {s}
        </li>
      ))}
    </ul>
  );
}

function Limits({ k }: { k: ApiKey }) {
  return (
    <span className="whitespace-nowrap text-sm text-stone-800">
      {formatCount(k.rate_limit_per_minute)}/min · {formatCount(k.daily_quota)}/day
    </span>
  );
}

export function KeyList({
  keys,
  highlight,
  canWrite,
  onRevoke,
}: {
  keys: ApiKey[];
  highlight: string | null;
  canWrite: boolean;
  onRevoke: (k: ApiKey) => void;
}) {
  const revokeButton = (k: ApiKey) =>
    canWrite && k.status === "ACTIVE" ? (
      <Button variant="secondary" className="text-red-800" aria-label={`Revoke ${k.name}`} onClick={() => onRevoke(k)}>
        Revoke
      </Button>
    ) : null;
  return (
    <>
      {/* Desktop: a table. */}
      <div className="hidden overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">API keys, newest first</caption>
          <thead className="bg-stone-50 text-xs uppercase tracking-wide text-stone-700">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Name
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Key
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Status
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Scopes
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Limits
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Created
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200">
            {keys.map((k) => (
              <tr key={k.id} className={cx(k.status === "REVOKED" && "bg-stone-50 text-stone-700", k.id === highlight && "bg-teal-50")}>
                <th scope="row" className="px-4 py-3 font-medium text-stone-900">
                  <span className="break-words">{k.name}</span>
                  {k.id === highlight ? (
                    <span className="ml-2">
                      <Badge tone="info">New</Badge>
                    </span>
                  ) : null}
                </th>
                <td className="px-4 py-3">
                  <Mono className="whitespace-nowrap">{k.prefix}…</Mono>
                </td>
                <td className="px-4 py-3">
                  <StatusBadge status={k.status} />
                </td>
                <td className="max-w-xs px-4 py-3">
                  <Scopes scopes={k.scopes} />
                </td>
                <td className="px-4 py-3">
                  <Limits k={k} />
                </td>
                <td className="whitespace-nowrap px-4 py-3">
                  <time dateTime={k.created_at} title={formatDateTime(k.created_at)}>
                    {formatDate(k.created_at)}
                  </time>
                </td>
                <td className="px-4 py-3 text-right">{revokeButton(k)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* Phone: stacked cards. */}
      <ul className="space-y-3 md:hidden" aria-label="API keys, newest first">
        {keys.map((k) => (
          <li key={k.id}>
            <Card className={cx("!p-4", k.id === highlight && "border-teal-600")}>
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <h3 className="break-words font-medium">{k.name}</h3>
                  <Mono className="text-stone-700">{k.prefix}…</Mono>
                </div>
                <StatusBadge status={k.status} />
              </div>
              <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-2 text-sm">
                <dt className="text-stone-600">Scopes</dt>
                <dd className="min-w-0">
                  <Scopes scopes={k.scopes} />
                </dd>
                <dt className="text-stone-600">Limits</dt>
                <dd>
                  <Limits k={k} />
                </dd>
                <dt className="text-stone-600">Created</dt>
                <dd>
                  <time dateTime={k.created_at}>{formatDateTime(k.created_at)}</time>
                </dd>
              </dl>
              {revokeButton(k) ? <div className="mt-3 flex justify-end">{revokeButton(k)}</div> : null}
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}
