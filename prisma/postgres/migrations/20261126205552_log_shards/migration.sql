-- CreateTable
CREATE TABLE "log_shards" (
    "shard" INTEGER NOT NULL,
    "origin" TEXT NOT NULL,
    "public_key" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "frozen_at" TIMESTAMP(3),
    "final_size" BIGINT,

    CONSTRAINT "log_shards_pkey" PRIMARY KEY ("shard")
);

-- CreateIndex
CREATE UNIQUE INDEX "log_shards_origin_key" ON "log_shards"("origin");

-- The log as created is shard 0 (its positions are its own indexes).
INSERT INTO "log_shards" ("shard", "origin", "public_key", "created_at")
SELECT 0, "origin", "public_key", "created_at" FROM "log" WHERE "id" = 1;
