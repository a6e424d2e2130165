// What the verify page offers beside the checks: the log key they used, the proof's files to
// download, and how to check them offline.
import { useEffect, useState } from "react";
import { Mono } from "../../_components/ui";
import { keyIdentity, type LogInfo } from "./proof-sources";

function useObjectUrl(text: string | null, type: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (text === null) return;
    const u = URL.createObjectURL(new Blob([text], { type }));
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [text, type]);
  return url;
}

/** `log` and `bundleText` once the check has downloaded them (null before, or when it could not); `loading` while it runs. */
export function ProofDownloads({
  protectionId,
  log,
  bundleText,
  loading,
}: {
  protectionId: string;
  log: LogInfo | null;
  bundleText: string | null;
  loading: boolean;
}) {
  const identity = keyIdentity(log);
  const bundleUrl = useObjectUrl(bundleText, "application/json");
  const logPemUrl = useObjectUrl(log?.public_key ?? null, "application/x-pem-file");
  return (
    <>
      <p>
        <span className="font-medium text-stone-900">Log key used: </span>
        {identity ? (
          <>
            origin <Mono className="text-stone-900">{identity.origin}</Mono>, key ID{" "}
            <Mono className="text-stone-900">{identity.keyId}</Mono>
          </>
        ) : loading ? (
          "loading…"
        ) : (
          "unavailable"
        )}
      </p>
      <p>
        These checks ran on your device with open code, not on our server. They prove the attestation is in the log that this key signs; to
        rule out a forged log, compare the key above with the one the operator publishes at{" "}
        <a className="font-medium text-teal-800 underline underline-offset-2" href="/v1/log">
          /v1/log
        </a>
        .
      </p>
      <div className="flex flex-wrap gap-2 pt-1">
        {bundleUrl ? (
          <a
            href={bundleUrl}
            download={`hallmark-proof-${protectionId}.json`}
            className="inline-flex items-center rounded-lg bg-teal-800 px-4 py-2 text-sm font-medium text-white hover:bg-teal-900 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
          >
            Download proof bundle
          </a>
        ) : null}
        <a
          href={`/v1/protections/${encodeURIComponent(protectionId)}/certificate.pdf`}
          download={`hallmark-certificate-${protectionId}.pdf`}
          className="inline-flex items-center rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
        >
          Download certificate (PDF)
        </a>
        <a
          href={`/v1/protections/${encodeURIComponent(protectionId)}/tlog-proof`}
          download={`${protectionId}.tlog-proof`}
          className="inline-flex items-center rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
        >
          Download .tlog-proof
        </a>
        <a
          href="/v1/log/policy"
          download="policy.txt"
          className="inline-flex items-center rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
        >
          Download policy
        </a>
        {logPemUrl ? (
          <a
            href={logPemUrl}
            download="log.pem"
            className="inline-flex items-center rounded-lg border border-stone-300 bg-white px-4 py-2 text-sm font-medium text-stone-900 hover:bg-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-700"
          >
            Download log key
          </a>
        ) : null}
      </div>
      <p>
        Verify offline:{" "}
        <Mono className="rounded bg-stone-100 px-1.5 py-0.5 text-stone-900">npm run verify -- bundle.json --log-key log.pem</Mono>, or with
        the portable proof and the policy:{" "}
        <Mono className="rounded bg-stone-100 px-1.5 py-0.5 text-stone-900">npm run verify -- proof.tlog-proof --policy policy.txt</Mono>
      </p>
    </>
  );
}
