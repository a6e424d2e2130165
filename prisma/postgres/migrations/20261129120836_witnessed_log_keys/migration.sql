-- AlterTable
ALTER TABLE "witnessed_logs" ADD COLUMN     "log_vkey" TEXT,
ADD COLUMN     "witness_vkeys" TEXT;
