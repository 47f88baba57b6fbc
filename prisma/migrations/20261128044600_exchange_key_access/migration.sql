-- AlterTable
ALTER TABLE "exchange_accounts" ADD COLUMN     "exchange_uid" TEXT,
ADD COLUMN     "ip_restricted" BOOLEAN,
ADD COLUMN     "trading_expires_at" TIMESTAMPTZ(3);
