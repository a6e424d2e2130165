-- AlterTable
ALTER TABLE "email_tokens" ADD COLUMN     "email" TEXT;

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "client_address" TEXT,
ADD COLUMN     "user_agent" TEXT;

-- CreateTable
CREATE TABLE "registrations" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "registrations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "registrations_token_hash_key" ON "registrations"("token_hash");

-- CreateIndex
CREATE INDEX "registrations_email_created_at_idx" ON "registrations"("email", "created_at");
