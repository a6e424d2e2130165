"use client";
// "Who protected this file?": hash the file on this device, then ask GET /v1/lookup (public,
// limited per address) and say the answer in words, the first claim first.
import Link from "next/link";
import { useRef, useState } from "react";
import { errorInfo, failureOfResponse, fetchOrFail } from "@/lib/request-failure";
import { FileDropZone, HashingProgress, useFileHash } from "../_components/file-drop";
import { Mono, textLink } from "../_components/ui";
import { longDate, utcDateTime } from "../_components/verify-format";

interface LookupItem {
  protection_id: string;
  creator: { name: string; portfolio_url: string };
  title: string | null;
  protected_at: string;
  log_index: number;
  verify_url: string;
}
interface Lookup {
  content_hash: string;
  first_protected_at: string | null;
  items: LookupItem[];
  total: number;
  private: { count: number; first_protected_at: string | null };
}
type Answer = { phase: "none" } | { phase: "asking" } | { phase: "found"; lookup: Lookup } | { phase: "failed"; message: string };

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** The lookup's answer; a refusal (429 with its wait, 5xx) or no answer throws a RequestFailure in words. */
async function ask(hex: string): Promise<Lookup> {
  const res = await fetchOrFail(`/v1/lookup?content_hash=${hex}`, { headers: { accept: "application/json" } });
  if (!res.ok) throw await failureOfResponse(res);
  return (await res.json()) as Lookup;
}

/** The answer in one sentence: who came first, and how many since. */
function Summary({ lookup }: { lookup: Lookup }) {
  const { items, total, private: hidden } = lookup;
  const all = total + hidden.count;
  if (all === 0) {
    return (
      <>
        <p className="font-semibold">No one has protected this file with Hallmark</p>
        <p className="mt-1 text-sm">
          No protection of exactly these bytes is in the log. A re-saved or edited copy has a different fingerprint, so look up the original
          if you have it.
        </p>
      </>
    );
  }
  const firstPublic = items[0];
  const privateFirst = hidden.first_protected_at !== null && (!firstPublic || hidden.first_protected_at < firstPublic.protected_at);
  return (
    <>
      <p className="font-semibold" data-testid="lookup-summary">
        {privateFirst
          ? `First protected privately on ${longDate(hidden.first_protected_at!)}`
          : `First protected by ${firstPublic!.creator.name} on ${longDate(firstPublic!.protected_at)}`}
        {all > 1 ? `, ${plural(all - 1, "other", "others")} since` : ""}.
      </p>
      <p className="mt-1 text-sm">
        {total > 0 ? `${plural(total, "public protection", "public protections")}` : "No public protection"}
        {hidden.count > 0
          ? `; ${plural(hidden.count, "private one", "private ones")}, whose creators keep their names and titles private`
          : ""}
        .
      </p>
    </>
  );
}

export function FileLookup() {
  const [answer, setAnswer] = useState<Answer>({ phase: "none" });
  const latest = useRef("");
  const { state, hash } = useFileHash((hex) => {
    latest.current = hex;
    setAnswer({ phase: "asking" });
    ask(hex).then(
      (lookup) => latest.current === hex && setAnswer({ phase: "found", lookup }),
      (e: unknown) => latest.current === hex && setAnswer({ phase: "failed", message: errorInfo(e).message }),
    );
  });
  return (
    <div>
      <FileDropZone
        label="Choose a file to look up"
        hint="Drop a file here or click to choose one. Only its fingerprint is sent, never the file."
        onFile={(file) => {
          latest.current = "";
          setAnswer({ phase: "none" });
          hash(file);
        }}
      />
      <div role="status" aria-live="polite" className="mt-4">
        {state.phase === "hashing" ? (
          <HashingProgress {...state} />
        ) : state.phase === "error" ? (
          <p className="rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">{state.message}</p>
        ) : state.phase === "done" && answer.phase === "asking" ? (
          <p className="rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm text-stone-800">
            Asking the log who protected <span className="break-all font-medium">{state.name}</span>…
          </p>
        ) : state.phase === "done" && answer.phase === "failed" ? (
          <p className="rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">{answer.message}</p>
        ) : state.phase === "done" && answer.phase === "found" ? (
          <div className="rounded-xl border border-stone-300 bg-white px-4 py-3 text-stone-900">
            <Summary lookup={answer.lookup} />
            <p className="mt-2 text-sm">
              <span className="break-all">{state.name}</span>: <Mono>sha256:{state.hex}</Mono>
            </p>
          </div>
        ) : null}
      </div>
      {state.phase === "done" && answer.phase === "found" && answer.lookup.items.length > 0 ? (
        <section aria-labelledby="lookup-list" className="mt-6">
          <h2 id="lookup-list" className="text-lg font-semibold">
            Public protections, first claim first
          </h2>
          <ol className="mt-3 divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
            {answer.lookup.items.map((item) => (
              <li key={item.protection_id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
                <div className="min-w-0">
                  <p className="font-medium">
                    <a className={`${textLink} underline`} href={item.creator.portfolio_url}>
                      {item.creator.name}
                    </a>
                    {item.title ? <span className="text-stone-700"> · “{item.title}”</span> : null}
                  </p>
                  <p className="text-sm text-stone-700">
                    {utcDateTime(item.protected_at)} · log entry #{item.log_index.toLocaleString("en")}
                  </p>
                </div>
                <Link className={textLink} href={new URL(item.verify_url).pathname} aria-label={`Verify ${item.creator.name}'s protection`}>
                  Verify
                </Link>
              </li>
            ))}
          </ol>
          {answer.lookup.total > answer.lookup.items.length ? (
            <p className="mt-2 text-sm text-stone-700">
              The first {answer.lookup.items.length} of {answer.lookup.total.toLocaleString("en")} are shown.
            </p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
