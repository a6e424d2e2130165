// What a page shows of a file's Content Credentials (C2PA manifest store, as c2pa-rs reads it):
// the active manifest's signer, claim generator, signing time, actions and ingredients, and
// whether it validated. Pure, so it is unit-tested on manifest stores as the reader returns them.
import type { Manifest, Reader as ManifestStore, ValidationStatus } from "@contentauth/c2pa-types";

export interface CredentialsSummary {
  title: string | null;
  /** Who signed the manifest: the certificate's organisation, or its common name. */
  signer: string | null;
  /** The software that made the claim, with its version. */
  claimGenerator: string | null;
  /** When the manifest was signed (the signature's time, or its time-stamp's). */
  signedAt: string | null;
  /** Each action as "c2pa.created", with the software that did it where it says. */
  actions: string[];
  ingredients: { title: string; relationship: string }[];
  /** c2pa-rs's verdict: Trusted (a known signer's chain), Valid (intact, signer not on a trust list) or Invalid. */
  validationState: "Trusted" | "Valid" | "Invalid" | null;
  /** Why it is not valid: the failure codes with their explanations. */
  problems: string[];
  /** How many manifests the store holds (the history of edits). */
  manifests: number;
}

type ActionLike = { action?: unknown; softwareAgent?: unknown; when?: unknown };

function actionsOf(manifest: Manifest): string[] {
  const out: string[] = [];
  for (const a of manifest.assertions ?? []) {
    if (a.label !== "c2pa.actions" && a.label !== "c2pa.actions.v2") continue;
    const list = (a.data as { actions?: ActionLike[] } | null)?.actions ?? [];
    for (const act of list) {
      if (typeof act.action !== "string") continue;
      const agent = act.softwareAgent;
      const by = typeof agent === "string" ? agent : typeof agent === "object" && agent && "name" in agent ? String(agent.name) : null;
      out.push(by ? `${act.action} (${by})` : act.action);
    }
  }
  return out;
}

function generatorOf(manifest: Manifest): string | null {
  const info = manifest.claim_generator_info?.[0];
  if (info?.name) return info.version ? `${info.name} ${info.version}` : info.name;
  return manifest.claim_generator ?? null;
}

const failures = (statuses: ValidationStatus[] | null | undefined) =>
  (statuses ?? []).filter((s) => s.success !== true).map((s) => (s.explanation ? `${s.code}: ${s.explanation}` : s.code));

export function summarizeCredentials(store: ManifestStore): CredentialsSummary | null {
  const label = store.active_manifest;
  const manifest = label ? store.manifests?.[label] : undefined;
  if (!manifest) return null;
  const sig = manifest.signature_info;
  const results = store.validation_results?.activeManifest as { failure?: ValidationStatus[] } | null | undefined;
  return {
    title: manifest.title ?? null,
    signer: sig?.issuer ?? sig?.common_name ?? null,
    claimGenerator: generatorOf(manifest),
    signedAt: sig?.time ?? null,
    actions: actionsOf(manifest),
    ingredients: (manifest.ingredients ?? []).map((i) => ({ title: i.title ?? "untitled", relationship: i.relationship ?? "componentOf" })),
    validationState: store.validation_state ?? null,
    problems: [...new Set([...failures(store.validation_status), ...failures(results?.failure)])],
    manifests: Object.keys(store.manifests ?? {}).length,
  };
}
