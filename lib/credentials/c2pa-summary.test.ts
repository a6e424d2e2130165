// The summary a page shows of a C2PA manifest store, on stores in the shape c2pa-rs's reader
// answers (c2pa-types' Reader).
import type { Reader as ManifestStore } from "@contentauth/c2pa-types";
import { describe, expect, it } from "vitest";
import { summarizeCredentials } from "./c2pa-summary";

const store = (over: Partial<ManifestStore> = {}): ManifestStore => ({
  active_manifest: "urn:c2pa:2",
  manifests: {
    "urn:c2pa:1": { title: "A.jpg", claim_generator: "old/1.0", assertions: [] },
    "urn:c2pa:2": {
      title: "CA.jpg",
      claim_generator: "make_test_images/0.16.1",
      claim_generator_info: [{ name: "Photo Editor", version: "2.1" }],
      signature_info: { issuer: "C2PA Test Signing Cert", common_name: "C2PA Signer", time: "2024-05-01T10:00:00+00:00" },
      ingredients: [{ title: "A.jpg", relationship: "parentOf" }, { title: "logo.png" }],
      assertions: [
        {
          label: "c2pa.actions.v2",
          data: { actions: [{ action: "c2pa.opened" }, { action: "c2pa.color_adjustments", softwareAgent: { name: "Photo Editor 2.1" } }] },
        },
        { label: "c2pa.actions", data: { actions: [{ action: "c2pa.resized", softwareAgent: "Resizer" }, { nothing: 1 }] } },
        { label: "stds.schema-org.CreativeWork", data: { author: [] } },
      ],
    },
  },
  validation_state: "Valid",
  validation_status: [],
  ...over,
});

describe("Content Credentials summary", () => {
  it("names the active manifest's signer, generator, time, actions and ingredients", () => {
    expect(summarizeCredentials(store())).toEqual({
      title: "CA.jpg",
      signer: "C2PA Test Signing Cert",
      claimGenerator: "Photo Editor 2.1",
      signedAt: "2024-05-01T10:00:00+00:00",
      actions: ["c2pa.opened", "c2pa.color_adjustments (Photo Editor 2.1)", "c2pa.resized (Resizer)"],
      ingredients: [
        { title: "A.jpg", relationship: "parentOf" },
        { title: "logo.png", relationship: "componentOf" },
      ],
      validationState: "Valid",
      problems: [],
      manifests: 2,
    });
  });

  it("says why a store is invalid, each failure once", () => {
    const failure = { code: "assertion.dataHash.mismatch", explanation: "asset hash does not match", success: false };
    const s = summarizeCredentials(
      store({
        validation_state: "Invalid",
        validation_status: [failure, { code: "claimSignature.validated", success: true }],
        validation_results: { activeManifest: { success: [], informational: [], failure: [failure] } },
      }),
    );
    expect(s?.validationState).toBe("Invalid");
    expect(s?.problems).toEqual(["assertion.dataHash.mismatch: asset hash does not match"]);
  });

  it("falls back to the claim generator string and the certificate's common name", () => {
    const s = store();
    const m = s.manifests!["urn:c2pa:2"]!;
    delete m.claim_generator_info;
    m.signature_info = { common_name: "C2PA Signer" };
    expect(summarizeCredentials(s)).toMatchObject({ claimGenerator: "make_test_images/0.16.1", signer: "C2PA Signer", signedAt: null });
  });

  it("answers null for a store without an active manifest", () => {
    expect(summarizeCredentials(store({ active_manifest: null }))).toBeNull();
    expect(summarizeCredentials(store({ active_manifest: "urn:missing" }))).toBeNull();
  });
});
