import { EmptyState, LinkButton } from "../../../_components/ui";

export default function VerificationNotFound() {
  return (
    <EmptyState
      title="This verification could not be found"
      action={<LinkButton href="/console/verifications">See your verifications</LinkButton>}
    >
      There is no verification with this id in your organisation.
    </EmptyState>
  );
}
