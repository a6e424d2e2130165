-- CreateTable
CREATE TABLE "witnessed_logs" (
    "origin" TEXT NOT NULL PRIMARY KEY,
    "tree_size" BIGINT NOT NULL,
    "root_hash" BLOB NOT NULL,
    "body" TEXT NOT NULL,
    "note" TEXT NOT NULL,
    "cosignatures" TEXT NOT NULL,
    "updated_at" DATETIME NOT NULL
);
