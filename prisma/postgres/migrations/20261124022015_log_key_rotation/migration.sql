-- AlterTable
ALTER TABLE "log" ADD COLUMN     "key_since" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "retired_log_keys" (
    "key_id" TEXT NOT NULL,
    "public_key" BYTEA NOT NULL,
    "private_key_enc" TEXT NOT NULL,
    "signs_from" TIMESTAMP(3) NOT NULL,
    "signs_until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "retired_log_keys_pkey" PRIMARY KEY ("key_id")
);
