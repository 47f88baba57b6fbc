-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "claimed_until" TIMESTAMPTZ(3),
ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'pending';

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "bot_blocked_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "notification_settings" (
    "user_id" INTEGER NOT NULL,
    "fills" BOOLEAN NOT NULL DEFAULT false,
    "daily_report" BOOLEAN NOT NULL DEFAULT false,
    "trading_alerts" BOOLEAN NOT NULL DEFAULT true,
    "wallet" BOOLEAN NOT NULL DEFAULT true,
    "bonuses" BOOLEAN NOT NULL DEFAULT true,
    "license" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_settings_pkey" PRIMARY KEY ("user_id")
);

-- AddForeignKey
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "notifications_status_next_attempt_at_id_idx" ON "notifications"("status", "next_attempt_at", "id");

-- What a notification's delivery came to (docs/notifications.md#delivery).
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_status_check"
  CHECK ("status" IN ('pending', 'sent', 'muted', 'blocked', 'failed', 'expired'));
-- Rows a sender already marked sent before this column existed.
UPDATE "notifications" SET "status" = 'sent' WHERE "sent_at" IS NOT NULL;
