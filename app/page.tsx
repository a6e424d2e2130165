export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-20">
      <h1 className="text-4xl font-semibold tracking-tight">Hallmark</h1>
      <p className="mt-4 text-lg text-stone-700">
        Signed attestations of content hashes, recorded in an append-only Merkle transparency log that anyone can
        check offline.
      </p>
      <p className="mt-6 text-stone-600">
        The REST API lives under <code className="rounded bg-stone-200 px-1">/v1</code>; the log&apos;s public key is at{" "}
        <a className="underline" href="/v1/log">/v1/log</a>.
      </p>
    </main>
  );
}
