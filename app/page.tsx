import Link from "next/link";
import { currentViewer } from "@/server/pages/page-viewer";
import { Card, LinkButton } from "./_components/ui";

const steps = [
  {
    title: "Hash it in your browser",
    body: "Drop a file. Your browser computes its SHA-256 fingerprint locally; the file itself never leaves your device.",
  },
  {
    title: "Get a signed attestation",
    body: "Hallmark signs the fingerprint with your personal Ed25519 key and records it in an append-only public log.",
  },
  {
    title: "Share the proof",
    body: "Send the verify or share link. Anyone can drop the file to see it matches, and check the proof in their own browser.",
  },
];

const proves = [
  "These exact bytes existed no later than the time recorded.",
  "Your account claimed them at that time, signed with your key.",
  "The record is in an append-only log: it cannot be back-dated or quietly removed.",
];

const doesNot = [
  "That you created the work — only that you claimed it then. Earlier claims elsewhere may exist.",
  "Anything about a different file: re-encoding, resizing or re-saving changes every bit of the hash.",
  "What the file contains: Hallmark never sees it, only its fingerprint.",
];

export default async function HomePage() {
  const viewer = await currentViewer();
  const home = viewer?.realm === "organization" ? "/console" : "/dashboard";
  return (
    <div className="space-y-16">
      <section className="grid gap-10 pt-4 lg:grid-cols-[1.2fr_1fr] lg:items-center">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-teal-800">Content attestation</p>
          <h1 className="mt-3 text-4xl font-semibold tracking-tight sm:text-5xl">Prove your work existed — and that you claimed it.</h1>
          <p className="mt-5 max-w-xl text-lg text-stone-700">
            Hallmark timestamps the fingerprint of any file in a signed, public transparency log. Your files stay on your device; the proof
            goes wherever you share it, and anyone can check it without trusting us.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            {viewer ? (
              <LinkButton href={home}>Go to your {viewer.realm === "organization" ? "console" : "dashboard"}</LinkButton>
            ) : (
              <>
                <LinkButton href="/signup">Start free</LinkButton>
                <LinkButton href="/login" variant="secondary">
                  Log in
                </LinkButton>
              </>
            )}
          </div>
          <p className="mt-4 text-sm text-stone-600">Free plan: 50 protections a month. Creator: 500. Pro: unlimited.</p>
        </div>
        <section aria-label="An example proof" className="rounded-2xl bg-stone-900 p-6 text-stone-100 shadow-sm">
          <p className="text-sm text-stone-300">Example: what a visitor checks</p>
          <ul className="mt-4 space-y-3 text-sm">
            {[
              "Log checkpoint signature",
              "Included in the log",
              "Signature by the issuer's key",
              "Key valid at signing time",
              "Your file matches",
            ].map((c) => (
              <li key={c} className="flex items-center gap-3">
                <span aria-hidden className="grid h-5 w-5 place-items-center rounded-full bg-emerald-500 text-xs font-bold text-stone-900">
                  ✓
                </span>
                {c}
              </li>
            ))}
          </ul>
          <p className="mt-5 break-all font-mono text-xs text-stone-300">
            sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
          </p>
        </section>
      </section>

      <section aria-labelledby="how">
        <h2 id="how" className="text-2xl font-semibold tracking-tight">
          How it works
        </h2>
        <ol className="mt-6 grid gap-4 md:grid-cols-3">
          {steps.map((s, i) => (
            <li key={s.title}>
              <Card className="h-full">
                <p className="text-sm font-semibold text-teal-800">Step {i + 1}</p>
                <h3 className="mt-1 text-lg font-semibold">{s.title}</h3>
                <p className="mt-2 text-stone-700">{s.body}</p>
              </Card>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="proves" className="grid gap-4 md:grid-cols-2">
        <Card>
          <h2 id="proves" className="text-xl font-semibold">
            What a protection proves
          </h2>
          <ul className="mt-4 list-disc space-y-2 pl-5 text-stone-700">
            {proves.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Card>
        <Card>
          <h2 className="text-xl font-semibold">What it does not prove</h2>
          <ul className="mt-4 list-disc space-y-2 pl-5 text-stone-700">
            {doesNot.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Card>
      </section>

      <section aria-labelledby="trust" className="grid gap-6 lg:grid-cols-2 lg:items-start">
        <div>
          <h2 id="trust" className="text-2xl font-semibold tracking-tight">
            Verify without trusting us
          </h2>
          <p className="mt-3 text-stone-700">
            Every attestation is an Ed25519 signature over your file&apos;s hash, recorded as a leaf in an RFC 9162 Merkle tree whose signed
            checkpoints are public. Verify pages re-run every check in the visitor&apos;s browser; the proof bundle also verifies offline
            with our open command-line verifier and nothing but the{" "}
            <a className="font-medium text-teal-800 underline" href="/v1/log">
              log&apos;s public key
            </a>
            .
          </p>
        </div>
        <Card className="min-w-0">
          <h3 className="font-semibold">For developers</h3>
          <p className="mt-1 text-sm text-stone-700">
            The same service over a REST API, with API keys, proof bundles and offline verification.
          </p>
          <pre
            tabIndex={0}
            aria-label="Example request"
            className="mt-4 overflow-x-auto rounded-lg bg-stone-900 p-4 text-xs text-stone-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-teal-700"
          >
            <code>{`curl -X POST $HALLMARK/v1/consumer/mint \\
  -H "X-API-Key: $KEY" -H "Content-Type: application/json" \\
  -d '{"content_hash":"sha256:…","title":"Cover art"}'`}</code>
          </pre>
          <p className="mt-3 text-sm text-stone-700">
            Every endpoint is in the{" "}
            <a className="font-medium text-teal-800 underline" href="/docs">
              API reference
            </a>
            , where requests can be tried, and in the{" "}
            <a className="font-medium text-teal-800 underline" href="/v1/openapi.json">
              OpenAPI 3.1 document
            </a>
            .
          </p>
          <p className="mt-3 text-sm text-stone-700">
            Organisations:{" "}
            <Link className="underline" href="/login">
              log in to your console
            </Link>{" "}
            to manage API keys and issuers.
          </p>
        </Card>
      </section>
    </div>
  );
}
