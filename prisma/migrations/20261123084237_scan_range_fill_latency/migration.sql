-- Fill latency (docs/grid.md#fill-latency): when reconcile recorded a fill and when the coin bot's
-- next orders were placed. Existing fills keep recorded_at NULL (never measured); the next converged
-- reconcile of their coin bot sets their converged_at once.
-- Price scans over the range since the last scan (docs/grid.md#triggers): where the last one stopped.

-- AlterTable
ALTER TABLE "fills" ADD COLUMN     "converged_at" TIMESTAMPTZ(3),
ADD COLUMN     "recorded_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "price_marks" ADD COLUMN     "scanned_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "fills_coin_bot_id_converged_at_idx" ON "fills"("coin_bot_id", "converged_at");
