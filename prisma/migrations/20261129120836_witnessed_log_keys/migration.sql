-- AlterTable
ALTER TABLE "witnessed_logs" ADD COLUMN "log_vkey" TEXT;
ALTER TABLE "witnessed_logs" ADD COLUMN "witness_vkeys" TEXT;
