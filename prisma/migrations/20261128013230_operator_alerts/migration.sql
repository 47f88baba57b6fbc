-- CreateTable
CREATE TABLE "operator_alerts" (
    "id" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_until" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "message_id" BIGINT,
    "last_error" TEXT,

    CONSTRAINT "operator_alerts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "operator_alerts_dedupe_key_key" ON "operator_alerts"("dedupe_key");

-- CreateIndex
CREATE INDEX "operator_alerts_status_next_attempt_at_id_idx" ON "operator_alerts"("status", "next_attempt_at", "id");

-- The delivery states (docs/operations.md#operators-chat).
ALTER TABLE "operator_alerts" ADD CONSTRAINT "operator_alerts_status_check"
  CHECK ("status" IN ('pending', 'sent', 'failed', 'skipped'));
