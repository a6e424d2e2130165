import { ProtectionNotFound } from "../../_components/protection-not-found";

export default function ShareNotFound() {
  return <ProtectionNotFound kind="share" />;
}
