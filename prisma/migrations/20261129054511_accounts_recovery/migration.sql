-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_email_tokens" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT,
    "purpose" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "email" TEXT,
    "session_id" TEXT,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "email_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_email_tokens" ("created_at", "email", "expires_at", "id", "purpose", "token_hash", "used_at", "user_id") SELECT "created_at", "email", "expires_at", "id", "purpose", "token_hash", "used_at", "user_id" FROM "email_tokens";
DROP TABLE "email_tokens";
ALTER TABLE "new_email_tokens" RENAME TO "email_tokens";
CREATE UNIQUE INDEX "email_tokens_token_hash_key" ON "email_tokens"("token_hash");
CREATE INDEX "email_tokens_user_id_purpose_idx" ON "email_tokens"("user_id", "purpose");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "sessions_user_id_client_address_idx" ON "sessions"("user_id", "client_address");
