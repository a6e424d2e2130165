-- CreateTable
CREATE TABLE "witness_evidence" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "witness_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tree_size" BIGINT NOT NULL,
    "status" INTEGER NOT NULL,
    "request" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "witness_evidence_created_at_idx" ON "witness_evidence"("created_at");
