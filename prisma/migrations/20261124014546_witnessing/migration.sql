-- CreateTable
CREATE TABLE "cosignatures" (
    "tree_size" BIGINT NOT NULL,
    "witness_key" TEXT NOT NULL,
    "key_name" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "cosigned_at" DATETIME NOT NULL,

    PRIMARY KEY ("tree_size", "witness_key")
);

-- CreateTable
CREATE TABLE "witness_states" (
    "witness_key" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "cosigned_size" BIGINT,
    "cosigned_at" DATETIME,
    "last_attempt_at" DATETIME,
    "last_error" TEXT,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" DATETIME NOT NULL,
    "lease_until" DATETIME
);

-- CreateTable
CREATE TABLE "published_checkpoint" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tree_size" BIGINT NOT NULL,
    "updated_at" DATETIME NOT NULL
);
