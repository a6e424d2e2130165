-- AlterTable
ALTER TABLE "issuers" ADD COLUMN "personal_for" TEXT;

-- CreateTable
CREATE TABLE "email_tokens" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "email_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "ended_at" DATETIME,
    CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "protections" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "attestation_id" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT,
    "content_type" TEXT,
    "file_name" TEXT,
    "file_size" BIGINT,
    "category" TEXT NOT NULL,
    "visibility" TEXT NOT NULL,
    "ai_metadata" TEXT,
    "verification_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "protections_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "usage_counters" (
    "user_id" TEXT NOT NULL,
    "month" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("user_id", "month")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "tenant_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "response" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,

    PRIMARY KEY ("tenant_id", "key")
);

-- CreateIndex
CREATE UNIQUE INDEX "email_tokens_token_hash_key" ON "email_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "email_tokens_user_id_purpose_idx" ON "email_tokens"("user_id", "purpose");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "protections_attestation_id_key" ON "protections"("attestation_id");

-- CreateIndex
CREATE INDEX "protections_user_id_created_at_idx" ON "protections"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "protections_content_hash_idx" ON "protections"("content_hash");

-- CreateIndex
CREATE UNIQUE INDEX "issuers_personal_for_key" ON "issuers"("personal_for");
