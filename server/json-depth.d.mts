export declare const MAX_JSON_DEPTH: number;
export declare function jsonDepthExcess(text: string, max?: number): (string | number)[] | null;
