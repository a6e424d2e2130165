"use client";
// A dropped file's Content Credentials (C2PA), read in the visitor's browser by the Content
// Authenticity Initiative's reader (@contentauth/c2pa-web: c2pa-rs in WebAssembly, in its own
// Web Worker), shown beside Hallmark's answer. The reader (8 MB) is fetched only when a file is
// dropped, from this origin (app/c2pa/[file]); the file itself never leaves the browser.
import type { C2paSdk } from "@contentauth/c2pa-web";
import { useEffect, useState } from "react";
import { type CredentialsSummary, summarizeCredentials } from "@/lib/credentials/c2pa-summary";
import { C2PA_WASM_FILE } from "./c2pa-version";
import { cx } from "./ui";

type State =
  | { phase: "idle" }
  | { phase: "reading" }
  | { phase: "none"; reason: string }
  | { phase: "found"; summary: CredentialsSummary }
  | { phase: "failed"; message: string };

let sdk: Promise<C2paSdk> | null = null;
function reader(): Promise<C2paSdk> {
  sdk ??= import("@contentauth/c2pa-web")
    .then(({ createC2pa }) => createC2pa({ wasmSrc: new URL(`/c2pa/${C2PA_WASM_FILE}`, window.location.href).href }))
    .catch((err: unknown) => {
      sdk = null; // a later file tries again
      throw err;
    });
  return sdk;
}

async function read(file: File): Promise<State> {
  const { isSupportedReaderFormat } = await import("@contentauth/c2pa-web");
  const format = file.type || "application/octet-stream";
  if (!isSupportedReaderFormat(format)) return { phase: "none", reason: "This kind of file is not read for Content Credentials." };
  const r = await (await reader()).reader.fromBlob(format, file);
  if (!r) return { phase: "none", reason: "This file carries no Content Credentials." };
  try {
    const summary = summarizeCredentials(await r.manifestStore());
    return summary ? { phase: "found", summary } : { phase: "none", reason: "This file carries no active Content Credentials." };
  } finally {
    await r.free();
  }
}

const STATE_WORDS = {
  Trusted: "valid, signed by a signer on the C2PA trust list",
  Valid: "intact and validly signed; the signer is not on the trust list this reader knows",
  Invalid: "invalid: the file or its credentials were changed after signing, or the signature does not hold",
} as const;

/**
 * `hallmark`: whether the file's bytes are a Hallmark protection (null while unknown), in words.
 */
export function ContentCredentials({ file, hallmark }: { file: File | null; hallmark: string | null }) {
  const [state, setState] = useState<State>({ phase: "idle" });
  useEffect(() => {
    if (!file) return setState({ phase: "idle" });
    let current = true;
    setState({ phase: "reading" });
    read(file).then(
      (s) => current && setState(s),
      (err: unknown) => current && setState({ phase: "failed", message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      current = false;
    };
  }, [file]);
  if (state.phase === "idle") return null;
  return (
    <section aria-labelledby="credentials-heading" className="mt-6" data-testid="content-credentials">
      <h2 id="credentials-heading" className="text-lg font-semibold">
        Content Credentials (C2PA)
      </h2>
      {state.phase === "reading" ? (
        <p className="mt-1 text-sm text-stone-700">Reading the file's Content Credentials in this browser…</p>
      ) : state.phase === "none" ? (
        <p className="mt-1 text-sm text-stone-700">{state.reason}</p>
      ) : state.phase === "failed" ? (
        <p className="mt-1 text-sm text-red-900">The Content Credentials could not be read: {state.message}</p>
      ) : (
        <Summary s={state.summary} hallmark={hallmark} />
      )}
    </section>
  );
}

function Summary({ s, hallmark }: { s: CredentialsSummary; hallmark: string | null }) {
  const ok = s.validationState === "Trusted" || s.validationState === "Valid";
  const rows: [string, string][] = [
    ["Signed by", s.signer ?? "not stated"],
    ["Made with", s.claimGenerator ?? "not stated"],
    ["Signed on", s.signedAt ? new Date(s.signedAt).toUTCString() : "not stated"],
    ["Actions", s.actions.length ? s.actions.join("; ") : "none stated"],
    ["Ingredients", s.ingredients.length ? s.ingredients.map((i) => `${i.title} (${i.relationship})`).join("; ") : "none"],
  ];
  if (hallmark) rows.push(["On Hallmark", hallmark]);
  return (
    <div className={cx("mt-2 rounded-xl border px-4 py-3", ok ? "border-stone-300 bg-white" : "border-amber-300 bg-amber-50")}>
      <p className="font-semibold" data-testid="credentials-state">
        {s.title ? `“${s.title}”: ` : ""}Content Credentials {s.validationState ? STATE_WORDS[s.validationState] : "of unknown validity"}
        {s.manifests > 1 ? ` (${s.manifests} manifests in its history)` : ""}.
      </p>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium text-stone-700">{k}</dt>
            <dd className="break-words">{v}</dd>
          </div>
        ))}
      </dl>
      {s.problems.length ? (
        <ul className="mt-2 list-disc pl-5 text-sm text-amber-950">
          {s.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      <p className="mt-2 text-xs text-stone-600">
        Read by the Content Authenticity Initiative's open-source reader (c2pa-rs) in this browser. Credentials say who signed a claim about
        the file, not who made the work; Hallmark's proof is the log entry above.
      </p>
    </div>
  );
}
