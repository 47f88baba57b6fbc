-- Fill latency (docs/grid.md#fill-latency): when reconcile recorded a fill and when the coin bot's
-- next orders were placed. Existing fills stay NULL: their latency was never measured.
-- Price scans over the range since the last scan (docs/grid.md#triggers): where the last one stopped.

-- AlterTable
ALTER TABLE "fills" ADD COLUMN     "converged_at" TIMESTAMPTZ(3),
ADD COLUMN     "recorded_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "price_marks" ADD COLUMN     "scanned_at" TIMESTAMPTZ(3);
