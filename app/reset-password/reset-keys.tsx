// What a password reset revokes besides the sessions: the account's active API keys, named so a
// person sees which scripts stop working before they choose a new password.
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { formatDate } from "../_components/api-keys-format";
import { Mono } from "../_components/ui";

export type ResetKeys = inferRouterOutputs<AppRouter>["consumerAuth"]["resetKeys"];

const keysInWords = (n: number) => (n === 1 ? "this API key" : `these ${n} API keys`);

export function ResetKeysList({ keys }: { keys: ResetKeys }) {
  if (keys.total === 0) {
    return (
      <p className="text-sm text-stone-700">
        Setting a new password ends every session of your account. Your account has no active API keys, so none will be revoked.
      </p>
    );
  }
  const more = keys.total - keys.items.length;
  return (
    <div className="space-y-2 text-sm text-stone-700">
      <p>
        Setting a new password ends every session of your account and revokes {keysInWords(keys.total)}: whatever uses them stops working,
        and you can create new keys after you log in.
      </p>
      <ul aria-label="API keys the new password revokes" className="divide-y divide-stone-200 rounded-lg border border-stone-200">
        {keys.items.map((k) => (
          <li key={`${k.prefix}-${k.created_at}`} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 px-3 py-2">
            <span className="min-w-0 break-words font-medium text-stone-900">{k.name}</span>
            <span className="flex flex-wrap gap-x-3 text-xs text-stone-700">
              <Mono>{k.prefix}…</Mono>
              <span>created {formatDate(k.created_at)}</span>
            </span>
          </li>
        ))}
      </ul>
      {more > 0 ? <p>…and {more === 1 ? "1 more" : `${more} more`}.</p> : null}
    </div>
  );
}
