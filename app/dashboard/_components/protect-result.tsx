"use client";
import { toDataURL } from "qrcode";
import { useEffect, useRef, useState } from "react";
import { CopyButton } from "@/app/_components/copy-button";
import { Alert, Button, Mono } from "@/app/_components/ui";
import { errorInfo, useTRPCClient } from "@/app/_trpc/client";
import type { MintView } from "./protect-types";

const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

/** A URL to open, read out in full, with a button that copies it. */
function UrlRow({ label, url, copyLabel }: { label: string; url: string; copyLabel: string }) {
  return (
    <div>
      <dt className="text-sm font-medium text-stone-800">{label}</dt>
      <dd className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-center">
        <a
          href={url}
          className="min-w-0 flex-1 break-all rounded font-mono text-sm text-teal-800 underline underline-offset-2 hover:text-teal-950 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
        >
          {url}
        </a>
        <CopyButton value={url} label={copyLabel} className="shrink-0 self-start sm:self-auto" />
      </dd>
    </div>
  );
}

/** What a creator gets after minting: the links to hand out, a QR code, and the offline proof. */
export function ProtectResult({ result, fileName, focusOnMount }: { result: MintView; fileName: string; focusOnMount: boolean }) {
  const client = useTRPCClient();
  const heading = useRef<HTMLHeadingElement>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [download, setDownload] = useState<{ state: "idle" | "busy" | "waiting" | "done" } | { state: "failed"; message: string }>({
    state: "idle",
  });

  useEffect(() => {
    if (focusOnMount) heading.current?.focus();
  }, [focusOnMount]);

  useEffect(() => {
    let live = true;
    toDataURL(result.share_url, { margin: 1, width: 320, errorCorrectionLevel: "M", color: { dark: "#1c1917", light: "#ffffff" } })
      .then((url) => live && setQr(url))
      .catch(() => live && setQr(null));
    return () => {
      live = false;
    };
  }, [result.share_url]);

  /**
   * The bundle once the log's witnesses have cosigned a checkpoint covering it: a protection made
   * a moment ago waits for them (a few seconds), as the server says with not_yet_witnessed.
   */
  async function witnessedBundle() {
    for (let attempt = 0; ; attempt++) {
      try {
        return await client.consumer.proofBundle.query({ id: result.protection_id });
      } catch (err) {
        const info = errorInfo(err);
        if (info.code !== "not_yet_witnessed" || attempt >= 20) throw err;
        setDownload({ state: "waiting" });
        await new Promise((r) => setTimeout(r, 1000 * (info.retryAfter ?? 2)));
      }
    }
  }

  async function downloadBundle() {
    setDownload({ state: "busy" });
    try {
      const bundle = await witnessedBundle();
      const blob = new Blob([JSON.stringify(bundle, null, 2) + "\n"], { type: "application/json" });
      const href = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = href;
      a.download = `hallmark-proof-${result.protection_id}.json`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      setDownload({ state: "done" });
    } catch (err) {
      setDownload({ state: "failed", message: errorInfo(err).message });
    }
  }

  return (
    <div className="mt-4 space-y-4">
      <div className="flex items-start gap-3 rounded-xl border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-950" role="status">
        <span aria-hidden className="mt-0.5 grid h-6 w-6 shrink-0 place-items-center rounded-full bg-emerald-700 text-sm text-white">
          ✓
        </span>
        <div>
          <h3 ref={heading} tabIndex={-1} className="font-semibold focus:outline-none">
            Protected
          </h3>
          <p className="text-sm">
            {fileName} was signed and written to the public log on{" "}
            <time dateTime={result.protected_at}>{dateTime.format(new Date(result.protected_at))}</time>.
          </p>
        </div>
      </div>
      <div className="grid gap-5 md:grid-cols-[1fr_auto]">
        <dl className="min-w-0 space-y-4">
          <UrlRow
            label="Verify URL — anyone can check the file against your attestation"
            url={result.verify_url}
            copyLabel="Copy verify link"
          />
          <UrlRow label="Share URL — show your work and its proof" url={result.share_url} copyLabel="Copy share link" />
          <div>
            <dt className="text-sm font-medium text-stone-800">Proof bundle</dt>
            <dd className="mt-1 space-y-2">
              <p className="text-sm text-stone-700">
                The signed attestation with its log inclusion proof, checkable offline without trusting Hallmark.
              </p>
              <Button variant="secondary" onClick={downloadBundle} disabled={download.state === "busy" || download.state === "waiting"}>
                {download.state === "busy"
                  ? "Preparing…"
                  : download.state === "waiting"
                    ? "Waiting for witnesses…"
                    : "Download proof bundle"}
              </Button>
              {download.state === "done" ? (
                <p role="status" className="text-sm text-stone-700">
                  Saved as <Mono>hallmark-proof-{result.protection_id}.json</Mono>
                </p>
              ) : null}
              {download.state === "failed" ? <Alert title="Could not download the proof bundle">{download.message}</Alert> : null}
              <p className="text-sm text-stone-700">
                Or as a portable{" "}
                <a
                  className="font-medium text-teal-800 underline underline-offset-2"
                  href={`/v1/protections/${encodeURIComponent(result.protection_id)}/tlog-proof`}
                  download={`${result.protection_id}.tlog-proof`}
                >
                  .tlog-proof
                </a>{" "}
                (C2SP tlog-proof), which carries the log&apos;s checkpoint and its witnesses&apos; cosignatures.
              </p>
              <p className="text-sm text-stone-700">
                Or as a{" "}
                <a
                  className="font-medium text-teal-800 underline underline-offset-2"
                  href={`/v1/protections/${encodeURIComponent(result.protection_id)}/certificate.pdf`}
                  download={`hallmark-certificate-${result.protection_id}.pdf`}
                >
                  certificate (PDF)
                </a>{" "}
                to show others: it carries both proofs as attachments and verifies by itself.
              </p>
            </dd>
          </div>
        </dl>
        <figure className="flex flex-col items-center gap-2 self-start rounded-xl border border-stone-200 bg-white p-3">
          {qr ? (
            // biome-ignore lint/performance/noImgElement: a data: URL made in the browser; next/image would add nothing here
            <img src={qr} alt="QR code for the share link" width={160} height={160} className="h-40 w-40" />
          ) : (
            <div className="h-40 w-40 animate-pulse rounded bg-stone-100" aria-hidden />
          )}
          <figcaption className="text-xs text-stone-600">Scan to open the share page</figcaption>
        </figure>
      </div>
    </div>
  );
}
