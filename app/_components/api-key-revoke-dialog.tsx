import type { RefObject } from "react";
import { ConfirmDialog } from "./api-keys-dialog";
import type { ApiKey } from "./api-key-list";
import { Mono } from "./ui";

/** "Revoke this key?": what stops working, and that it cannot be undone. */
export function RevokeKeyDialog({
  revoking,
  pending,
  error,
  onConfirm,
  onCancel,
  returnFocus,
}: {
  revoking: ApiKey | null;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}) {
  return (
    <ConfirmDialog
      open={revoking !== null}
      title={`Revoke “${revoking?.name ?? ""}”?`}
      description={
        <>
          <p>
            Every request that uses this key (<Mono>{revoking?.prefix}…</Mono>) will be refused with 401, at once and on every server.
            Whatever uses it stops working.
          </p>
          <p className="mt-2 font-medium text-stone-900">This cannot be undone.</p>
        </>
      }
      confirmLabel="Revoke key"
      pendingLabel="Revoking…"
      pending={pending}
      error={error}
      onConfirm={onConfirm}
      onCancel={onCancel}
      returnFocus={returnFocus}
    />
  );
}
