/** Per connection, in MB: the page cache (HALLMARK_SQLITE_CACHE_MB) and the map (HALLMARK_SQLITE_MMAP_MB, 0 for none). */
export interface SqliteSizes {
  cacheMb: number;
  mmapMb: number;
}
/** See sqlite-pragmas.mjs. */
export declare function readPragmas(sizes: SqliteSizes): readonly string[];
