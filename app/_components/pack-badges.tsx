import { Badge } from "./ui";

export function PackStatusBadge({ status }: { status: string }) {
  return status === "active" ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Archived</Badge>;
}

export function TemplateBadge() {
  return <Badge tone="info">Template</Badge>;
}

export function CustomBadge() {
  return <Badge>Custom</Badge>;
}
