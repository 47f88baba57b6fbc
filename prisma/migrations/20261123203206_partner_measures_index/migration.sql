-- CreateIndex
CREATE INDEX "ledger_transfers_type_created_at_idx" ON "ledger_transfers"("type", "created_at");
