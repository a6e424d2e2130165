-- CreateTable
CREATE TABLE "log_shards" (
    "shard" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "origin" TEXT NOT NULL,
    "public_key" BLOB NOT NULL,
    "created_at" DATETIME NOT NULL,
    "frozen_at" DATETIME,
    "final_size" BIGINT
);

-- CreateIndex
CREATE UNIQUE INDEX "log_shards_origin_key" ON "log_shards"("origin");

-- The log as created is shard 0 (its positions are its own indexes).
INSERT INTO "log_shards" ("shard", "origin", "public_key", "created_at")
SELECT 0, "origin", "public_key", "created_at" FROM "log" WHERE "id" = 1;
