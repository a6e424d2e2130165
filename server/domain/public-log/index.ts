// The transparency log as the API shows it: tree heads, proof bundles, the log's keys and
// policy, its shards' rotation, and the witness network it asks for cosignatures.
// Other contexts and layers import this context through this file only.
export * from "./log-rotation";
export * from "./log-views";
export * from "./proof-bundles";
export * from "./witness-network";
