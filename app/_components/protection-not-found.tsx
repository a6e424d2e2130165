import { EmptyState, LinkButton } from "./ui";

/** The 404 of a verify or share link: no protection has that id (or the link was cut short). */
export function ProtectionNotFound({ kind }: { kind: "verify" | "share" }) {
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="mb-6 text-3xl font-semibold tracking-tight">Protection not found</h1>
      <EmptyState title="There is no protection at this address" action={<LinkButton href="/">Go to Hallmark</LinkButton>}>
        <p>
          Check that the link was copied in full: a {kind} link ends with the protection&apos;s ID, for example /{kind}/0197a1b2-…. If the
          creator sent it to you, ask them for the link again.
        </p>
      </EmptyState>
    </div>
  );
}
