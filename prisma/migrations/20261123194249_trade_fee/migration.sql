-- AlterTable
ALTER TABLE "coin_bots" ADD COLUMN     "trade_fees" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "lots" ADD COLUMN     "trade_fee" BIGINT;

ALTER TABLE "lots" ADD CONSTRAINT "lots_trade_fee_positive" CHECK ("trade_fee" IS NULL OR ("trade_fee" > 0 AND "closed_at" IS NOT NULL));
ALTER TABLE "coin_bots" ADD CONSTRAINT "coin_bots_trade_fees_not_negative" CHECK ("trade_fees" >= 0);
