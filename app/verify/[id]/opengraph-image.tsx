import { OG_ALT, OG_SIZE, ogImage } from "../../_components/og-card";

export const size = OG_SIZE;
export const contentType = "image/png";
export const alt = OG_ALT;

export default async function Image({ params }: { params: Promise<{ id: string }> }) {
  return ogImage((await params).id, "verify");
}
