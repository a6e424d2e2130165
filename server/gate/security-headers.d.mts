export type PathKind = "api" | "static" | "page";
export declare function kindOfPath(path: string): PathKind;
export declare function securityHeaders(options: { https: boolean; dev: boolean }): {
  api: Record<string, string>;
  staticFiles: Record<string, string>;
  pageCommon: Record<string, string>;
  pagePolicy(nonce: string): string;
};
