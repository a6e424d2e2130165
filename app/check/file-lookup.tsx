"use client";
// "Who protected this file?": digest the file on this device, then ask GET /v1/lookup (public,
// limited per address) and say the answer in words, the first claim first. When no one
// protected these exact bytes publicly and the file is a picture, ask again by its PDQ hash: who
// protected a picture that looks like it. A private protection is its owner's alone: the lookup
// knows nothing of it, and the page says so where it says "no one".
import { useEffect, useRef, useState } from "react";
import type { FileDigest } from "@/app/_components/hash-file";
import { PDQ_MIN_MATCH_QUALITY } from "@/lib/fingerprint/pdq-index";
import { errorInfo, failureOfResponse, fetchOrFail } from "@/lib/request-failure";
import { FileDropZone, HashingProgress, useFileHash } from "../_components/file-drop";
import { Mono, textLink } from "../_components/ui";
import { longDate, utcDateTime } from "../_components/verify-format";
import { SimilarPictures } from "./similar-pictures";
import { type Lookup, ShownOf, VerifyLink } from "./lookup-parts";
import { ContentCredentials } from "../_components/content-credentials";

type Answer =
  | { phase: "none" }
  | { phase: "asking" }
  | { phase: "found"; lookup: Lookup; similar: Lookup | null; pdqNote: string | null }
  | { phase: "failed"; message: string };

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** The lookup's answer; a refusal (429 with its wait, 5xx) or no answer throws a RequestFailure in words. */
async function ask(query: string): Promise<Lookup> {
  const res = await fetchOrFail(`/v1/lookup?${query}`, { headers: { accept: "application/json" } });
  if (!res.ok) throw await failureOfResponse(res);
  return (await res.json()) as Lookup;
}

/** Whether the bytes are a Hallmark protection, for the Content Credentials beside the answer. */
const hallmarkWords = (lookup: Lookup) =>
  lookup.total > 0
    ? `these exact bytes are protected publicly (first on ${longDate(lookup.first_protected_at!)})`
    : "these exact bytes are not a public Hallmark protection";

/** What the page says wherever it says no one: a private protection is never shown, to anyone but its creator. */
const PRIVATE_NOTE = "Private protections are their creators' alone: no one else can learn that they exist.";

/** By the bytes first; by the picture only when the bytes were never protected publicly. */
async function askAbout(digest: FileDigest): Promise<Extract<Answer, { phase: "found" }>> {
  const lookup = await ask(`content_hash=${digest.sha256}`);
  const exact = lookup.total > 0;
  const { pdq } = digest;
  if (exact || !pdq) return { phase: "found", lookup, similar: null, pdqNote: digest.pdqNote };
  if (pdq.quality < PDQ_MIN_MATCH_QUALITY) {
    return { phase: "found", lookup, similar: null, pdqNote: "The picture is too plain (too few details) to be compared with others." };
  }
  return { phase: "found", lookup, similar: await ask(`pdq=${pdq.hash}`), pdqNote: null };
}

/** The answer in one sentence: who came first, and how many since. */
function Summary({ lookup, similar }: { lookup: Lookup; similar: Lookup | null }) {
  const { items, total } = lookup;
  const first = items[0];
  // No item though a total: every one was made private while the answer was read.
  if (total === 0 || !first) {
    const alike = similar ? similar.total : 0;
    return (
      <>
        <p className="font-semibold">No one has publicly protected {similar ? "exactly " : ""}this file with Hallmark</p>
        <p className="mt-1 text-sm" data-testid="similar-summary">
          {similar === null
            ? "No public protection of exactly these bytes is in the log. A re-saved or edited copy has a different fingerprint, so look up the original if you have it."
            : alike === 0
              ? "No public protection of these bytes is in the log, and no publicly protected picture looks like this one."
              : `No public protection of these bytes is in the log, but ${plural(alike, "publicly protected picture looks", "publicly protected pictures look")} like this one. A similar picture is not proof of copying: compare them yourself.`}{" "}
          {PRIVATE_NOTE}
        </p>
      </>
    );
  }
  return (
    <>
      <p className="font-semibold" data-testid="lookup-summary">
        First protected by {first.creator.name} on {longDate(first.protected_at)}
        {total > 1 ? `, ${plural(total - 1, "other", "others")} since` : ""}.
      </p>
      <p className="mt-1 text-sm">
        {plural(total, "public protection", "public protections")}. {PRIVATE_NOTE}
      </p>
    </>
  );
}

export function FileLookup() {
  const [answer, setAnswer] = useState<Answer>({ phase: "none" });
  // The visitor's own picture, shown beside the similar ones; it stays in this tab.
  const [preview, setPreview] = useState<string | null>(null);
  const [dropped, setDropped] = useState<File | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const latest = useRef("");
  const { state, hash } = useFileHash((digest) => {
    const hex = digest.sha256;
    latest.current = hex;
    setAnswer({ phase: "asking" });
    askAbout(digest).then(
      (found) => latest.current === hex && setAnswer(found),
      (e: unknown) => latest.current === hex && setAnswer({ phase: "failed", message: errorInfo(e).message }),
    );
  });
  return (
    <div>
      <FileDropZone
        label="Choose a file to look up"
        hint="Drop a file here or click to choose one. Only its fingerprints (SHA-256, and PDQ for a picture) are sent, never the file."
        onFile={(file) => {
          latest.current = "";
          setAnswer({ phase: "none" });
          setPreview(file?.type.startsWith("image/") ? URL.createObjectURL(file) : null);
          setDropped(file ?? null);
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
            <Summary lookup={answer.lookup} similar={answer.similar} />
            <p className="mt-2 text-sm">
              <span className="break-all">{state.name}</span>: <Mono>sha256:{state.hex}</Mono>
              {state.pdq ? (
                <>
                  {" "}
                  · <Mono>pdq:{state.pdq.hash}</Mono> (quality {state.pdq.quality})
                </>
              ) : null}
            </p>
            {answer.pdqNote ? <p className="mt-1 text-sm text-stone-700">{answer.pdqNote}</p> : null}
          </div>
        ) : null}
      </div>
      {state.phase === "done" && answer.phase === "found" && answer.similar ? (
        <SimilarPictures lookup={answer.similar} preview={preview} />
      ) : null}
      <ContentCredentials file={dropped} hallmark={answer.phase === "found" ? hallmarkWords(answer.lookup) : null} />
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
                <VerifyLink item={item} />
              </li>
            ))}
          </ol>
          <ShownOf shown={answer.lookup.items.length} total={answer.lookup.total} which="first" />
        </section>
      ) : null}
    </div>
  );
}
