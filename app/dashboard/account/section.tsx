import type { ReactNode } from "react";
import { Card, cx } from "../../_components/ui";

/** One part of the account page: a card named by its heading (a region landmark), with a lead. */
export function AccountSection({
  id,
  title,
  lead,
  danger = false,
  children,
}: {
  id: string;
  title: string;
  lead?: ReactNode;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <Card aria-labelledby={id} className={cx(danger && "border-red-300")}>
      <h2 id={id} className={cx("text-lg font-semibold", danger && "text-red-800")}>
        {title}
      </h2>
      {lead ? <div className="mt-1 space-y-2 text-sm text-stone-700">{lead}</div> : null}
      <div className="mt-4">{children}</div>
    </Card>
  );
}
