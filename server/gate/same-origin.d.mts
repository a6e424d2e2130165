export declare const UNSAFE_METHODS: ReadonlySet<string>;
export declare function crossOriginRefusal(
  method: string,
  path: string,
  headers: Record<string, string | string[] | undefined>,
  baseOrigin: string,
): string | null;
