import { ProtectionNotFound } from "../../_components/protection-not-found";

export default function VerifyNotFound() {
  return <ProtectionNotFound kind="verify" />;
}
