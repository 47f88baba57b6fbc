-- DropIndex
DROP INDEX "chain_deposits_ledger_transfer_id_key";

-- CreateIndex
CREATE INDEX "chain_deposits_ledger_transfer_id_idx" ON "chain_deposits"("ledger_transfer_id");
