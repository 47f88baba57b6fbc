-- OKX keys carry a third credential, the passphrase: sealed like the secret (docs/security.md#exchange-keys).
-- AlterTable
ALTER TABLE "exchange_accounts" ADD COLUMN     "passphrase_cipher" BYTEA,
ADD COLUMN     "passphrase_iv" BYTEA;
