-- DropIndex
DROP INDEX "protections_content_hash_idx";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_fingerprints" (
    "protection_id" TEXT NOT NULL,
    "alg" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "quality" INTEGER NOT NULL,
    "created_at" DATETIME NOT NULL,
    "w0" INTEGER,
    "w1" INTEGER,
    "w2" INTEGER,
    "w3" INTEGER,
    "w4" INTEGER,
    "w5" INTEGER,
    "w6" INTEGER,
    "w7" INTEGER,
    "w8" INTEGER,
    "w9" INTEGER,
    "w10" INTEGER,
    "w11" INTEGER,
    "w12" INTEGER,
    "w13" INTEGER,
    "w14" INTEGER,
    "w15" INTEGER,
    "hash_bytes" BLOB,
    "is_public" BOOLEAN NOT NULL DEFAULT false,

    PRIMARY KEY ("protection_id", "alg"),
    CONSTRAINT "fingerprints_protection_id_fkey" FOREIGN KEY ("protection_id") REFERENCES "protections" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
-- Each fingerprint's is_public is its protection's visibility now: public lookups find public ones only.
INSERT INTO "new_fingerprints" ("alg", "created_at", "hash", "hash_bytes", "protection_id", "quality", "w0", "w1", "w10", "w11", "w12", "w13", "w14", "w15", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9", "is_public") SELECT "alg", "created_at", "hash", "hash_bytes", "protection_id", "quality", "w0", "w1", "w10", "w11", "w12", "w13", "w14", "w15", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9", EXISTS (SELECT 1 FROM "protections" p WHERE p."id" = "fingerprints"."protection_id" AND p."visibility" = 'public') FROM "fingerprints";
DROP TABLE "fingerprints";
ALTER TABLE "new_fingerprints" RENAME TO "fingerprints";
CREATE INDEX "fingerprints_is_public_w0_hash_bytes_idx" ON "fingerprints"("is_public", "w0", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w1_hash_bytes_idx" ON "fingerprints"("is_public", "w1", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w2_hash_bytes_idx" ON "fingerprints"("is_public", "w2", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w3_hash_bytes_idx" ON "fingerprints"("is_public", "w3", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w4_hash_bytes_idx" ON "fingerprints"("is_public", "w4", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w5_hash_bytes_idx" ON "fingerprints"("is_public", "w5", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w6_hash_bytes_idx" ON "fingerprints"("is_public", "w6", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w7_hash_bytes_idx" ON "fingerprints"("is_public", "w7", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w8_hash_bytes_idx" ON "fingerprints"("is_public", "w8", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w9_hash_bytes_idx" ON "fingerprints"("is_public", "w9", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w10_hash_bytes_idx" ON "fingerprints"("is_public", "w10", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w11_hash_bytes_idx" ON "fingerprints"("is_public", "w11", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w12_hash_bytes_idx" ON "fingerprints"("is_public", "w12", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w13_hash_bytes_idx" ON "fingerprints"("is_public", "w13", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w14_hash_bytes_idx" ON "fingerprints"("is_public", "w14", "hash_bytes");
CREATE INDEX "fingerprints_is_public_w15_hash_bytes_idx" ON "fingerprints"("is_public", "w15", "hash_bytes");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "protections_user_id_visibility_created_at_idx" ON "protections"("user_id", "visibility", "created_at");

-- CreateIndex
CREATE INDEX "protections_content_hash_visibility_idx" ON "protections"("content_hash", "visibility");
