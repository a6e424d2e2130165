import { Badge } from "../../_components/ui";

export function IssuerStatusBadge({ status }: { status: string }) {
  const tone =
    status === "ACTIVE"
      ? "success"
      : status === "PENDING"
        ? "warning"
        : status === "SUSPENDED" || status === "REVOKED"
          ? "danger"
          : "neutral";
  return <Badge tone={tone}>{status}</Badge>;
}

export function TrustBadge({ level }: { level: string }) {
  return <Badge tone="info">{level}</Badge>;
}
