-- DropIndex
DROP INDEX "fingerprints_w0_idx";

-- DropIndex
DROP INDEX "fingerprints_w1_idx";

-- DropIndex
DROP INDEX "fingerprints_w2_idx";

-- DropIndex
DROP INDEX "fingerprints_w3_idx";

-- DropIndex
DROP INDEX "fingerprints_w4_idx";

-- DropIndex
DROP INDEX "fingerprints_w5_idx";

-- DropIndex
DROP INDEX "fingerprints_w6_idx";

-- DropIndex
DROP INDEX "fingerprints_w7_idx";

-- DropIndex
DROP INDEX "fingerprints_w8_idx";

-- DropIndex
DROP INDEX "fingerprints_w9_idx";

-- DropIndex
DROP INDEX "fingerprints_w10_idx";

-- DropIndex
DROP INDEX "fingerprints_w11_idx";

-- DropIndex
DROP INDEX "fingerprints_w12_idx";

-- DropIndex
DROP INDEX "fingerprints_w13_idx";

-- DropIndex
DROP INDEX "fingerprints_w14_idx";

-- DropIndex
DROP INDEX "fingerprints_w15_idx";

-- AlterTable
ALTER TABLE "fingerprints" ADD COLUMN "hash_bytes" BLOB;

-- The hash's bytes of every fingerprint that is matched (those with windows), before the window
-- indexes that hold them are built.
UPDATE "fingerprints" SET "hash_bytes" = unhex("hash") WHERE "w0" IS NOT NULL;

-- CreateIndex
CREATE INDEX "fingerprints_w0_hash_bytes_idx" ON "fingerprints"("w0", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w1_hash_bytes_idx" ON "fingerprints"("w1", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w2_hash_bytes_idx" ON "fingerprints"("w2", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w3_hash_bytes_idx" ON "fingerprints"("w3", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w4_hash_bytes_idx" ON "fingerprints"("w4", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w5_hash_bytes_idx" ON "fingerprints"("w5", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w6_hash_bytes_idx" ON "fingerprints"("w6", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w7_hash_bytes_idx" ON "fingerprints"("w7", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w8_hash_bytes_idx" ON "fingerprints"("w8", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w9_hash_bytes_idx" ON "fingerprints"("w9", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w10_hash_bytes_idx" ON "fingerprints"("w10", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w11_hash_bytes_idx" ON "fingerprints"("w11", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w12_hash_bytes_idx" ON "fingerprints"("w12", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w13_hash_bytes_idx" ON "fingerprints"("w13", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w14_hash_bytes_idx" ON "fingerprints"("w14", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_w15_hash_bytes_idx" ON "fingerprints"("w15", "hash_bytes");
