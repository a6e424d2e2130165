export declare function isPublicRead(path: string): boolean;
export declare const PUBLIC_READ_HEADERS: Readonly<Record<string, string>>;
export declare const PUBLIC_PREFLIGHT_HEADERS: Readonly<Record<string, string>>;
