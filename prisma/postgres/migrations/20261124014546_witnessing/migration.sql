-- CreateTable
CREATE TABLE "cosignatures" (
    "tree_size" BIGINT NOT NULL,
    "witness_key" TEXT NOT NULL,
    "key_name" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "cosigned_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "cosignatures_pkey" PRIMARY KEY ("tree_size","witness_key")
);

-- CreateTable
CREATE TABLE "witness_states" (
    "witness_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "cosigned_size" BIGINT,
    "cosigned_at" TIMESTAMP(3),
    "last_attempt_at" TIMESTAMP(3),
    "last_error" TEXT,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL,
    "lease_until" TIMESTAMP(3),

    CONSTRAINT "witness_states_pkey" PRIMARY KEY ("witness_key")
);

-- CreateTable
CREATE TABLE "published_checkpoint" (
    "id" INTEGER NOT NULL,
    "tree_size" BIGINT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "published_checkpoint_pkey" PRIMARY KEY ("id")
);
