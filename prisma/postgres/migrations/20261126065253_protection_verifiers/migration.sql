-- CreateTable
CREATE TABLE "protection_verifiers" (
    "protection_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,

    CONSTRAINT "protection_verifiers_pkey" PRIMARY KEY ("protection_id","tenant_id")
);

-- Each tenant that has verified a protection counts once: the pairs the verifications recorded so
-- far (a verification names its protection only when its cryptographic checks passed), and the
-- counts recomputed from them.
INSERT INTO "protection_verifiers" ("protection_id", "tenant_id")
SELECT DISTINCT "protection_id", "tenant_id" FROM "verifications" WHERE "protection_id" IS NOT NULL;
UPDATE "protections" SET "verification_count" =
    (SELECT COUNT(*) FROM "protection_verifiers" WHERE "protection_verifiers"."protection_id" = "protections"."id");
