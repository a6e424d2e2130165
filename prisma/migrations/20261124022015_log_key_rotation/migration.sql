-- AlterTable
ALTER TABLE "log" ADD COLUMN "key_since" DATETIME;

-- CreateTable
CREATE TABLE "retired_log_keys" (
    "key_id" TEXT NOT NULL PRIMARY KEY,
    "public_key" BLOB NOT NULL,
    "private_key_enc" TEXT NOT NULL,
    "signs_from" DATETIME NOT NULL,
    "signs_until" DATETIME NOT NULL
);
