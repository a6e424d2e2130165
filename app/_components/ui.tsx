// Small presentational building blocks shared by every page: one look, one set of focus and
// contrast rules (WCAG AA), so pages compose instead of restyling.
import Link from "next/link";
import type { ComponentProps, ReactNode } from "react";

const cx = (...parts: Array<string | false | null | undefined>) => parts.filter(Boolean).join(" ");

const focus = "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700";
const buttonStyles = {
  primary: "bg-teal-800 text-white hover:bg-teal-900 disabled:bg-stone-400",
  secondary: "border border-stone-300 bg-white text-stone-900 hover:bg-stone-100 disabled:text-stone-500",
  danger: "bg-red-700 text-white hover:bg-red-800 disabled:bg-stone-400",
  ghost: "text-stone-800 hover:bg-stone-200",
} as const;
type Variant = keyof typeof buttonStyles;
const buttonBase =
  "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-medium transition-colors disabled:cursor-not-allowed";

export function Button({ variant = "primary", className, ...props }: ComponentProps<"button"> & { variant?: Variant }) {
  return <button type="button" {...props} className={cx(buttonBase, buttonStyles[variant], focus, className)} />;
}

export function LinkButton({ variant = "primary", className, ...props }: ComponentProps<typeof Link> & { variant?: Variant }) {
  return <Link {...props} className={cx(buttonBase, buttonStyles[variant], focus, className)} />;
}

/** A link that downloads a file (a plain <a download>: never a client-side navigation or a prefetch), styled as a button. */
export function DownloadLink({ variant = "secondary", className, ...props }: ComponentProps<"a"> & { variant?: Variant }) {
  return <a download {...props} className={cx(buttonBase, buttonStyles[variant], focus, className)} />;
}

export function Card({ className, ...props }: ComponentProps<"section">) {
  return <section {...props} className={cx("rounded-2xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6", className)} />;
}

export function PageHeader({ title, lead, actions }: { title: string; lead?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
        {lead ? <p className="mt-1 text-stone-700">{lead}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

const inputBase =
  "mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 shadow-sm placeholder:text-stone-500 focus:border-teal-700 focus:outline-none focus:ring-2 focus:ring-teal-700/40";

/** A labelled form control; `error` is announced and tied to the control with aria-describedby. */
export function Field({
  label,
  id,
  error,
  hint,
  children,
}: {
  label: string;
  id: string;
  error?: string | null;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-stone-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input {...props} className={cx(inputBase, className)} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea {...props} className={cx(inputBase, className)} />;
}

export function Select({ className, ...props }: ComponentProps<"select">) {
  return <select {...props} className={cx(inputBase, className)} />;
}

const badgeStyles = {
  neutral: "bg-stone-100 text-stone-800 ring-stone-300",
  success: "bg-emerald-50 text-emerald-900 ring-emerald-300",
  danger: "bg-red-50 text-red-900 ring-red-300",
  warning: "bg-amber-50 text-amber-900 ring-amber-300",
  info: "bg-sky-50 text-sky-900 ring-sky-300",
} as const;

export function Badge({ tone = "neutral", children }: { tone?: keyof typeof badgeStyles; children: ReactNode }) {
  return (
    <span className={cx("inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset", badgeStyles[tone])}>
      {children}
    </span>
  );
}

export function Alert({
  tone = "danger",
  title,
  children,
}: {
  tone?: "danger" | "success" | "info" | "warning";
  title?: string;
  children?: ReactNode;
}) {
  const styles = {
    danger: "border-red-300 bg-red-50 text-red-900",
    success: "border-emerald-300 bg-emerald-50 text-emerald-900",
    info: "border-sky-300 bg-sky-50 text-sky-900",
    warning: "border-amber-300 bg-amber-50 text-amber-900",
  }[tone];
  return (
    <div role={tone === "danger" ? "alert" : "status"} className={cx("rounded-lg border px-4 py-3 text-sm", styles)}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-2xl border border-dashed border-stone-300 bg-white px-6 py-12 text-center">
      <p className="text-lg font-medium">{title}</p>
      {children ? <div className="mx-auto mt-2 max-w-md text-stone-700">{children}</div> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}

export function Spinner({ label = "Loading…" }: { label?: string }) {
  return (
    <div role="status" className="flex items-center gap-3 py-6 text-stone-700">
      <span aria-hidden className="h-5 w-5 animate-spin rounded-full border-2 border-stone-300 border-t-teal-700" />
      <span>{label}</span>
    </div>
  );
}

/** A monospace value that may be long (hashes, ids, keys): wraps instead of overflowing. */
export function Mono({ children, className }: { children: ReactNode; className?: string }) {
  return <code className={cx("break-all font-mono text-[0.85em]", className)}>{children}</code>;
}

export { cx };

/** The look of an inline text link (teal, underlined on hover, visible focus). */
export const textLink =
  "rounded font-medium text-teal-800 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700";

/** Where a page sits: links up the trail, the last item is the current page. */
export function Breadcrumbs({ trail }: { trail: Array<{ label: ReactNode; href?: string }> }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-stone-700">
        {trail.map((item, i) => {
          const last = i === trail.length - 1;
          return (
            <li key={i} className="flex min-w-0 items-center gap-1 break-words" aria-current={last ? "page" : undefined}>
              {item.href && !last ? (
                <Link className={textLink} href={item.href}>
                  {item.label}
                </Link>
              ) : (
                item.label
              )}
              {last ? null : <span aria-hidden>/</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** The line above a console page's title: whose console this is. */
export function ConsoleEyebrow({ org }: { org: string }) {
  return <p className="mb-1 text-sm font-medium text-teal-800">{org} · Organisation console</p>;
}
