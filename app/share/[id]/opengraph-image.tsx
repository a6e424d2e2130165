import { OG_ALT, OG_SIZE, ogCard } from "../../_components/og-card";
import { loadPublicProtection } from "../../_components/verify-data";

export const size = OG_SIZE;
export const contentType = "image/png";
export const alt = OG_ALT;

export default async function Image({ params }: { params: Promise<{ id: string }> }) {
  return ogCard(await loadPublicProtection((await params).id), "share");
}
