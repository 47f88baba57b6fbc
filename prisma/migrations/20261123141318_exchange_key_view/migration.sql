-- AlterTable
ALTER TABLE "exchange_accounts" ADD COLUMN     "check_problem" TEXT,
ADD COLUMN     "saved_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "secret_tail" TEXT;
