-- AlterTable
ALTER TABLE "coin_bots" ADD COLUMN     "closed_trades" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "profitable_trades" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "realized_pnl" DECIMAL(36,18) NOT NULL DEFAULT 0;
