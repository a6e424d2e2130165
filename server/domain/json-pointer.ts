/** An RFC 6901 JSON pointer to `path` ("" for the whole document): "~" and "/" escaped in each token. */
export const jsonPointer = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
