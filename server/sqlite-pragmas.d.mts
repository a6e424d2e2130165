/** See sqlite-pragmas.mjs. */
export declare const READ_PRAGMAS: readonly string[];
