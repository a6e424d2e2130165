import { EmptyState, LinkButton } from "../../_components/ui";

export default function VerifyNotFound() {
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="mb-6 text-3xl font-semibold tracking-tight">Protection not found</h1>
      <EmptyState title="There is no protection at this address" action={<LinkButton href="/">Go to Hallmark</LinkButton>}>
        <p>
          Check that the link was copied in full: a verify link ends with the protection&apos;s ID, for example
          /verify/0197a1b2-…. If the creator sent it to you, ask them for the link again.
        </p>
      </EmptyState>
    </div>
  );
}
