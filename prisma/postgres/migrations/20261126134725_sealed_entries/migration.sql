-- AlterTable
ALTER TABLE "attestations" ADD COLUMN     "seal" TEXT;

-- AlterTable
ALTER TABLE "log" ADD COLUMN     "seal_issuer_id" TEXT;
