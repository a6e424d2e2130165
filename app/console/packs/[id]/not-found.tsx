import { EmptyState, LinkButton } from "../../../_components/ui";

export default function PackNotFound() {
  return (
    <EmptyState title="This pack could not be found" action={<LinkButton href="/console/packs">See your packs</LinkButton>}>
      There is no pack with this id in your organisation. It may have been mistyped, or it belongs to another organisation.
    </EmptyState>
  );
}
