-- DropIndex
DROP INDEX "protections_content_hash_idx";

-- DropIndex
DROP INDEX "fingerprints_w0_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w1_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w2_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w3_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w4_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w5_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w6_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w7_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w8_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w9_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w10_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w11_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w12_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w13_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w14_hash_bytes_idx";

-- DropIndex
DROP INDEX "fingerprints_w15_hash_bytes_idx";

-- AlterTable
ALTER TABLE "fingerprints" ADD COLUMN     "is_public" BOOLEAN NOT NULL DEFAULT false;

-- Each fingerprint's is_public is its protection's visibility now: public lookups find public ones
-- only. Set before the new indexes are built, so they are built once over the final rows.
UPDATE "fingerprints" SET "is_public" = EXISTS (
  SELECT 1 FROM "protections" p WHERE p."id" = "fingerprints"."protection_id" AND p."visibility" = 'public'
);

-- CreateIndex
CREATE INDEX "protections_user_id_visibility_created_at_idx" ON "protections"("user_id", "visibility", "created_at");

-- CreateIndex
CREATE INDEX "protections_content_hash_visibility_idx" ON "protections"("content_hash", "visibility");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w0_hash_bytes_idx" ON "fingerprints"("is_public", "w0", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w1_hash_bytes_idx" ON "fingerprints"("is_public", "w1", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w2_hash_bytes_idx" ON "fingerprints"("is_public", "w2", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w3_hash_bytes_idx" ON "fingerprints"("is_public", "w3", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w4_hash_bytes_idx" ON "fingerprints"("is_public", "w4", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w5_hash_bytes_idx" ON "fingerprints"("is_public", "w5", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w6_hash_bytes_idx" ON "fingerprints"("is_public", "w6", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w7_hash_bytes_idx" ON "fingerprints"("is_public", "w7", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w8_hash_bytes_idx" ON "fingerprints"("is_public", "w8", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w9_hash_bytes_idx" ON "fingerprints"("is_public", "w9", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w10_hash_bytes_idx" ON "fingerprints"("is_public", "w10", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w11_hash_bytes_idx" ON "fingerprints"("is_public", "w11", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w12_hash_bytes_idx" ON "fingerprints"("is_public", "w12", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w13_hash_bytes_idx" ON "fingerprints"("is_public", "w13", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w14_hash_bytes_idx" ON "fingerprints"("is_public", "w14", "hash_bytes");

-- CreateIndex
CREATE INDEX "fingerprints_is_public_w15_hash_bytes_idx" ON "fingerprints"("is_public", "w15", "hash_bytes");
