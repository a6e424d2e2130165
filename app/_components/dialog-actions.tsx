import type { ComponentProps, RefObject } from "react";
import { Button, cx } from "./ui";

/**
 * A dialog's last row: Cancel, then its action (on a phone the action comes first, under the
 * thumb). The action submits the dialog's form unless `onAction` is given; while `busy`, both
 * are disabled and the action says `busyLabel`. `ruled` sets the row off from a long form.
 */
export function DialogActions({
  onCancel,
  label,
  busyLabel,
  busy,
  actionDisabled = busy,
  onAction,
  tone,
  cancelRef,
  ruled = false,
}: {
  onCancel: () => void;
  label: string;
  busyLabel: string;
  busy: boolean;
  actionDisabled?: boolean;
  onAction?: () => void;
  tone?: ComponentProps<typeof Button>["variant"];
  cancelRef?: RefObject<HTMLButtonElement | null>;
  ruled?: boolean;
}) {
  return (
    <div className={cx("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", ruled && "border-t border-stone-200 pt-4")}>
      <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type={onAction ? "button" : "submit"} variant={tone} onClick={onAction} disabled={actionDisabled}>
        {busy ? busyLabel : label}
      </Button>
    </div>
  );
}
