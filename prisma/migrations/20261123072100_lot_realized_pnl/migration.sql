-- AlterTable
ALTER TABLE "lots" ADD COLUMN     "realized_pnl" DECIMAL(36,18) NOT NULL DEFAULT 0;
