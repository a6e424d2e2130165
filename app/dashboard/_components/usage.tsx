"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { cx } from "@/app/_components/ui";
import { errorInfo, useTRPC } from "@/app/_trpc/client";
import type { UsageView } from "./protect-types";

const PLAN_NAMES: Record<string, string> = { free: "Free", creator: "Creator", pro: "Pro" };
const day = new Intl.DateTimeFormat("en", { day: "numeric", month: "long", timeZone: "UTC" });

function resetText(u: UsageView) {
  return `resets ${day.format(new Date(u.resets_at))}`;
}

/** The plan's monthly mint quota as a meter (or a count, on an unlimited plan). */
export function UsageMeter({ className }: { className?: string }) {
  const trpc = useTRPC();
  const usage = useQuery(trpc.consumer.usage.queryOptions());
  if (usage.isPending) {
    return (
      <div
        className={cx("h-24 animate-pulse rounded-2xl border border-stone-200 bg-white", className)}
        role="status"
        aria-label="Loading your usage"
      />
    );
  }
  if (usage.isError) {
    return (
      <div className={cx("rounded-2xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900", className)} role="alert">
        Your usage could not be loaded: {errorInfo(usage.error).message}
      </div>
    );
  }
  const u = usage.data;
  const plan = PLAN_NAMES[u.plan] ?? u.plan;
  const pct = u.limit ? Math.min(100, Math.round((u.used / u.limit) * 100)) : 0;
  const tone = u.limit === null ? "bg-teal-700" : pct >= 100 ? "bg-red-700" : pct >= 80 ? "bg-amber-600" : "bg-teal-700";
  return (
    <section aria-labelledby="usage-heading" className={cx("rounded-2xl border border-stone-200 bg-white p-5 shadow-sm", className)}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="usage-heading" className="text-sm font-semibold text-stone-800">
          This month · {plan} plan
        </h2>
        <p className="text-sm text-stone-600">{resetText(u)}</p>
      </div>
      {u.limit === null ? (
        <p className="mt-2 text-2xl font-semibold tabular-nums">
          {u.used} <span className="text-base font-normal text-stone-700">protections — unlimited on {plan}</span>
        </p>
      ) : (
        <>
          <p className="mt-2 text-2xl font-semibold tabular-nums">
            {u.used} <span className="text-base font-normal text-stone-700">of {u.limit} protections used</span>
          </p>
          <div
            role="meter"
            aria-label="Protections used this month"
            aria-valuemin={0}
            aria-valuemax={u.limit}
            aria-valuenow={Math.min(u.used, u.limit)}
            aria-valuetext={`${u.used} of ${u.limit}`}
            className="mt-3 h-2.5 w-full overflow-hidden rounded-full bg-stone-200"
          >
            <div className={cx("h-full rounded-full", tone)} style={{ width: `${u.used > 0 ? Math.max(pct, 1) : 0}%` }} />
          </div>
          {u.remaining === 0 ? (
            <p className="mt-2 text-sm text-red-800">
              You have used this month&apos;s quota. New protections are possible again when it resets.
            </p>
          ) : (
            <p className="mt-2 text-sm text-stone-600">{u.remaining} left this month.</p>
          )}
        </>
      )}
    </section>
  );
}

/** One line for the Protect page: how many mints are left. */
export function UsageSummary() {
  const trpc = useTRPC();
  const usage = useQuery(trpc.consumer.usage.queryOptions());
  if (!usage.data) return null;
  const u = usage.data;
  const plan = PLAN_NAMES[u.plan] ?? u.plan;
  return (
    <p className="text-sm text-stone-700">
      {u.limit === null ? (
        <>
          {u.used} protected this month on the {plan} plan (unlimited).
        </>
      ) : (
        <>
          <span className={u.remaining === 0 ? "font-medium text-red-800" : undefined}>
            {u.remaining} of {u.limit}
          </span>{" "}
          protections left this month on the {plan} plan ({resetText(u)}).
        </>
      )}{" "}
      <Link href="/dashboard/protections" className="font-medium text-teal-800 underline underline-offset-2">
        Your protections
      </Link>
    </p>
  );
}
