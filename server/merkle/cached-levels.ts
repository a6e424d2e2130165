// Where the tree's nodes are read from, shared by the node cache (server/log/node-cache.ts) and
// the store's one-statement read of a proof's lower siblings (server/store/raw-rows.ts).

/** The lowest level kept in memory; a proof reads its nodes below this level from the database. */
export const MIN_LEVEL = 5;
