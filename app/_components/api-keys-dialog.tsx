"use client";
// Modal dialogs on the native <dialog> element: showModal() makes the rest of the page inert,
// traps Tab inside, and Escape cancels. We move focus in on open and give it back on close.
import { useEffect, useId, useRef, type ReactNode, type RefObject } from "react";
import { Alert, cx } from "./ui";
import { DialogActions } from "./dialog-actions";

export function Modal({
  open,
  onClose,
  role = "dialog",
  title,
  description,
  busy = false,
  initialFocus,
  returnFocus,
  preferReturnFocus = false,
  children,
}: {
  open: boolean;
  onClose: () => void;
  role?: "dialog" | "alertdialog";
  title: string;
  description?: ReactNode;
  /** While busy, Escape does not close the dialog (a request is under way). */
  busy?: boolean;
  /** Where focus goes when the dialog opens (else the browser's choice: the first control). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Where focus goes on close when the control that opened the dialog is gone. */
  returnFocus?: RefObject<HTMLElement | null>;
  /** Focus `returnFocus` on close even when the opener is still there (e.g. a result to read). */
  preferReturnFocus?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      initialFocus?.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, initialFocus]);

  function restoreFocus() {
    // After the state update that closed us has rendered: the opener may be gone (a revoked row).
    requestAnimationFrame(() => {
      const target = (preferReturnFocus && returnFocus?.current) || (opener.current?.isConnected ? opener.current : returnFocus?.current);
      target?.focus();
    });
  }

  return (
    <dialog
      ref={ref}
      role={role}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(e) => {
        if (busy) e.preventDefault();
      }}
      onClose={() => {
        restoreFocus();
        onClose();
      }}
      className={cx(
        "m-auto w-[min(34rem,calc(100vw-1.5rem))] max-h-[calc(100dvh-1.5rem)] overflow-y-auto rounded-2xl border border-stone-200 bg-white p-5 text-stone-900 shadow-xl sm:p-6",
        "backdrop:bg-stone-950/50",
      )}
    >
      <h2 id={titleId} className="text-lg font-semibold tracking-tight">
        {title}
      </h2>
      {description ? (
        <div id={descriptionId} className="mt-2 text-sm text-stone-700">
          {description}
        </div>
      ) : null}
      <div className="mt-4">{children}</div>
    </dialog>
  );
}

/** "Are you sure?" for a consequential action: Cancel has focus first, Escape cancels. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  pendingLabel,
  tone = "danger",
  pending,
  error,
  onConfirm,
  onCancel,
  returnFocus,
}: {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  tone?: "danger" | "primary";
  pending: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  returnFocus?: RefObject<HTMLElement | null>;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      onClose={onCancel}
      role="alertdialog"
      title={title}
      description={description}
      busy={pending}
      initialFocus={cancelRef}
      returnFocus={returnFocus}
    >
      {error ? (
        <div className="mb-4">
          <Alert title="That did not work">{error}</Alert>
        </div>
      ) : null}
      <DialogActions
        onCancel={onCancel}
        onAction={onConfirm}
        label={confirmLabel}
        busyLabel={pendingLabel}
        busy={pending}
        tone={tone}
        cancelRef={cancelRef}
      />
    </Modal>
  );
}
