/** The oEmbed discovery link of a share or verify page (<link rel="alternate" type="application/json+oembed">). */
export const oembedAlternates = (pageUrl: string) => ({
  types: { "application/json+oembed": `/v1/oembed?url=${encodeURIComponent(pageUrl)}&format=json` },
});
