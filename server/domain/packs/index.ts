// Verification packs (rule sets, templates, revisions) and the verifications run against them.
// Other contexts and layers import this context through this file only.
export * from "./pack-rules";
export * from "./pack-templates";
export * from "./packs";
export * from "./verifications";
