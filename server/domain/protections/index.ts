// A creator's protected works: minting, listing, visibility, what the public may read of them,
// lookups by hash and by picture, badges, oEmbed, certificates and the account export.
// Other contexts and layers import this context through this file only.
export * from "./badges";
export * from "./certificate";
export * from "./certificate-pdf-cache";
export * from "./export";
export * from "./lookup";
export * from "./oembed";
export * from "./protection-list";
export * from "./protections";
export * from "./public-protections";
export * from "./readable-private";
export * from "./similar-lookup";
