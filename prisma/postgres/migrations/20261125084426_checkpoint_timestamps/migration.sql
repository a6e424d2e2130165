-- CreateTable
CREATE TABLE "checkpoint_timestamps" (
    "tree_size" BIGINT NOT NULL,
    "token" BYTEA NOT NULL,
    "gen_time" TIMESTAMP(3) NOT NULL,
    "tsa" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkpoint_timestamps_pkey" PRIMARY KEY ("tree_size")
);
