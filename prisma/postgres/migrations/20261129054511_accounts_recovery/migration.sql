-- AlterTable
ALTER TABLE "email_tokens" ADD COLUMN     "session_id" TEXT,
ALTER COLUMN "user_id" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "sessions_user_id_client_address_idx" ON "sessions"("user_id", "client_address");
