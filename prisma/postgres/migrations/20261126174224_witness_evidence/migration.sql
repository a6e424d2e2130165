-- CreateTable
CREATE TABLE "witness_evidence" (
    "id" SERIAL NOT NULL,
    "witness_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tree_size" BIGINT NOT NULL,
    "status" INTEGER NOT NULL,
    "request" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "witness_evidence_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "witness_evidence_created_at_idx" ON "witness_evidence"("created_at");
