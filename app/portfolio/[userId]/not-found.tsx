import { EmptyState, LinkButton } from "../../_components/ui";

export default function PortfolioNotFound() {
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="mb-6 text-3xl font-semibold tracking-tight">Portfolio not found</h1>
      <EmptyState title="There is no creator at this address" action={<LinkButton href="/">Go to Hallmark</LinkButton>}>
        <p>Check that the link was copied in full. Portfolios belong to individual creators; organisations have none.</p>
      </EmptyState>
    </div>
  );
}
