-- AlterTable
ALTER TABLE "users" ADD COLUMN     "blocked_at" TIMESTAMPTZ(3),
ADD COLUMN     "blocked_reason" TEXT,
ADD COLUMN     "sessions_valid_from" TIMESTAMPTZ(3),
ADD COLUMN     "username_signed_at" TIMESTAMPTZ(3);
