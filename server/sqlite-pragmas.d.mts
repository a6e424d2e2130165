/** See sqlite-pragmas.mjs. cacheMb: each connection's page cache, in MB (HALLMARK_SQLITE_CACHE_MB). */
export declare function readPragmas(cacheMb: number): readonly string[];
