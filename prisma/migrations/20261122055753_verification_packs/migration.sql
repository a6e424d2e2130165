-- CreateTable
CREATE TABLE "verification_packs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant_id" TEXT NOT NULL,
    "template_key" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "is_template" BOOLEAN NOT NULL,
    "rules" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "cloned_from" TEXT,
    "verifications_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "verifications" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant_id" TEXT NOT NULL,
    "pack_id" TEXT,
    "pack_revision" INTEGER,
    "source" TEXT NOT NULL,
    "attestation_id" TEXT,
    "protection_id" TEXT,
    "content_hash" TEXT,
    "result" TEXT NOT NULL,
    "checks" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "verification_packs_tenant_id_is_template_created_at_idx" ON "verification_packs"("tenant_id", "is_template", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "verification_packs_tenant_id_template_key_key" ON "verification_packs"("tenant_id", "template_key");

-- CreateIndex
CREATE INDEX "verifications_tenant_id_created_at_idx" ON "verifications"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "verifications_pack_id_created_at_idx" ON "verifications"("pack_id", "created_at");
