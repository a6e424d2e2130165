-- CreateTable
CREATE TABLE "witnessed_logs" (
    "origin" TEXT NOT NULL,
    "tree_size" BIGINT NOT NULL,
    "root_hash" BYTEA NOT NULL,
    "body" TEXT NOT NULL,
    "note" TEXT NOT NULL,
    "cosignatures" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "witnessed_logs_pkey" PRIMARY KEY ("origin")
);
