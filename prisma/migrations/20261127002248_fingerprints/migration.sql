-- CreateTable
CREATE TABLE "fingerprints" (
    "protection_id" TEXT NOT NULL,
    "alg" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "quality" INTEGER NOT NULL,
    "created_at" DATETIME NOT NULL,
    "w0" INTEGER,
    "w1" INTEGER,
    "w2" INTEGER,
    "w3" INTEGER,
    "w4" INTEGER,
    "w5" INTEGER,
    "w6" INTEGER,
    "w7" INTEGER,
    "w8" INTEGER,
    "w9" INTEGER,
    "w10" INTEGER,
    "w11" INTEGER,
    "w12" INTEGER,
    "w13" INTEGER,
    "w14" INTEGER,
    "w15" INTEGER,

    PRIMARY KEY ("protection_id", "alg"),
    CONSTRAINT "fingerprints_protection_id_fkey" FOREIGN KEY ("protection_id") REFERENCES "protections" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "fingerprints_w0_idx" ON "fingerprints"("w0");

-- CreateIndex
CREATE INDEX "fingerprints_w1_idx" ON "fingerprints"("w1");

-- CreateIndex
CREATE INDEX "fingerprints_w2_idx" ON "fingerprints"("w2");

-- CreateIndex
CREATE INDEX "fingerprints_w3_idx" ON "fingerprints"("w3");

-- CreateIndex
CREATE INDEX "fingerprints_w4_idx" ON "fingerprints"("w4");

-- CreateIndex
CREATE INDEX "fingerprints_w5_idx" ON "fingerprints"("w5");

-- CreateIndex
CREATE INDEX "fingerprints_w6_idx" ON "fingerprints"("w6");

-- CreateIndex
CREATE INDEX "fingerprints_w7_idx" ON "fingerprints"("w7");

-- CreateIndex
CREATE INDEX "fingerprints_w8_idx" ON "fingerprints"("w8");

-- CreateIndex
CREATE INDEX "fingerprints_w9_idx" ON "fingerprints"("w9");

-- CreateIndex
CREATE INDEX "fingerprints_w10_idx" ON "fingerprints"("w10");

-- CreateIndex
CREATE INDEX "fingerprints_w11_idx" ON "fingerprints"("w11");

-- CreateIndex
CREATE INDEX "fingerprints_w12_idx" ON "fingerprints"("w12");

-- CreateIndex
CREATE INDEX "fingerprints_w13_idx" ON "fingerprints"("w13");

-- CreateIndex
CREATE INDEX "fingerprints_w14_idx" ON "fingerprints"("w14");

-- CreateIndex
CREATE INDEX "fingerprints_w15_idx" ON "fingerprints"("w15");
