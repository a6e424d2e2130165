-- CreateTable
CREATE TABLE "checkpoint_timestamps" (
    "tree_size" BIGINT NOT NULL PRIMARY KEY,
    "token" BLOB NOT NULL,
    "gen_time" DATETIME NOT NULL,
    "tsa" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
