-- CreateTable
CREATE TABLE "tenants" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT,
    "email_verified_at" DATETIME,
    "plan" TEXT NOT NULL DEFAULT 'free',
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "users_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant_id" TEXT NOT NULL,
    "user_id" TEXT,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "daily_quota" INTEGER NOT NULL,
    "rate_limit_per_minute" INTEGER NOT NULL,
    "created_at" DATETIME NOT NULL,
    "revoked_at" DATETIME,
    CONSTRAINT "api_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "api_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "issuers" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "trust_level" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "issuers_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "signing_keys" (
    "kid" TEXT NOT NULL PRIMARY KEY,
    "issuer_id" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "public_key_pem" TEXT NOT NULL,
    "private_key_enc" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "not_before" DATETIME NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "signing_keys_issuer_id_fkey" FOREIGN KEY ("issuer_id") REFERENCES "issuers" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "attestations" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant_id" TEXT NOT NULL,
    "issuer_id" TEXT NOT NULL,
    "kid" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "log_index" BIGINT NOT NULL,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "attestations_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "attestations_issuer_id_fkey" FOREIGN KEY ("issuer_id") REFERENCES "issuers" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "log_nodes" (
    "level" INTEGER NOT NULL,
    "index" BIGINT NOT NULL,
    "hash" BLOB NOT NULL,

    PRIMARY KEY ("level", "index")
) WITHOUT ROWID; -- hand-edited: a proof is ~2 log2(n) seeks on this key; one B-tree instead of two

-- CreateTable
CREATE TABLE "checkpoints" (
    "tree_size" BIGINT NOT NULL PRIMARY KEY,
    "root_hash" BLOB NOT NULL,
    "note" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "timestamp" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "log" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "origin" TEXT NOT NULL,
    "public_key" BLOB NOT NULL,
    "private_key_enc" TEXT NOT NULL,
    "tree_size" BIGINT NOT NULL,
    "root_hash" BLOB NOT NULL,
    "created_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "users_tenant_id_key" ON "users"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_secret_hash_key" ON "api_keys"("secret_hash");

-- CreateIndex
CREATE INDEX "api_keys_tenant_id_created_at_idx" ON "api_keys"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "issuers_tenant_id_created_at_idx" ON "issuers"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "signing_keys_issuer_id_status_idx" ON "signing_keys"("issuer_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "attestations_log_index_key" ON "attestations"("log_index");

-- CreateIndex
CREATE INDEX "attestations_tenant_id_created_at_idx" ON "attestations"("tenant_id", "created_at");

