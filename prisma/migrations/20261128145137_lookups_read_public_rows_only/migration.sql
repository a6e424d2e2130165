-- DropIndex
DROP INDEX "protections_content_hash_idx";

-- CreateIndex
CREATE INDEX "protections_user_id_visibility_created_at_idx" ON "protections"("user_id", "visibility", "created_at");

-- CreateIndex
CREATE INDEX "protections_content_hash_visibility_idx" ON "protections"("content_hash", "visibility");

-- A private protection's fingerprint has no windows: lookups never read it, and no index range
-- or planner statistic holds its values. Made public again, its windows are written anew.
UPDATE "fingerprints" SET "w0" = NULL, "w1" = NULL, "w2" = NULL, "w3" = NULL, "w4" = NULL, "w5" = NULL, "w6" = NULL, "w7" = NULL,
  "w8" = NULL, "w9" = NULL, "w10" = NULL, "w11" = NULL, "w12" = NULL, "w13" = NULL, "w14" = NULL, "w15" = NULL, "hash_bytes" = NULL
WHERE "protection_id" IN (SELECT "id" FROM "protections" WHERE "visibility" <> 'public');
