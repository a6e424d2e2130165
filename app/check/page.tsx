import type { Metadata } from "next";
import Link from "next/link";
import { Card, textLink } from "../_components/ui";
import { FileLookup } from "./file-lookup";

export const metadata: Metadata = {
  title: "Who protected this file?",
  description: "Drop a file to see who protected it with Hallmark and when: it is hashed in your browser and never uploaded.",
};

export default function CheckPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <div className="mb-8">
        <p className="text-sm font-semibold uppercase tracking-wide text-teal-800">Look up a file</p>
        <h1 className="mt-1 text-3xl font-semibold tracking-tight sm:text-4xl">Who protected this file?</h1>
        <p className="mt-2 text-stone-700">
          Your browser computes the file&apos;s SHA-256 fingerprint and asks the public log who protected exactly those bytes, first claim
          first. The file itself never leaves your device.
        </p>
      </div>
      <Card aria-labelledby="lookup-heading">
        <h2 id="lookup-heading" className="sr-only">
          Choose a file
        </h2>
        <FileLookup />
      </Card>
      <p className="mt-6 text-sm text-stone-700">
        Holding a proof rather than the file (a proof bundle or a <code>.tlog-proof</code>)?{" "}
        <Link className={`${textLink} underline`} href="/verify">
          Check a proof file
        </Link>
        .
      </p>
    </div>
  );
}
