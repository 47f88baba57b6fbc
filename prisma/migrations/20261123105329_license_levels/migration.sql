-- AlterTable
ALTER TABLE "users" ADD COLUMN     "license_active_from" TIMESTAMPTZ(3),
ADD COLUMN     "license_active_until" TIMESTAMPTZ(3),
ADD COLUMN     "license_level" TEXT NOT NULL DEFAULT 'FREE';

-- CreateTable
CREATE TABLE "license_levels" (
    "code" TEXT NOT NULL,
    "rank" INTEGER NOT NULL,
    "yearly_price" DECIMAL(36,6) NOT NULL,
    "balance_limit" DECIMAL(36,6) NOT NULL,
    "coins" INTEGER NOT NULL,
    "matching_generations" INTEGER NOT NULL,
    "valid_days" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "license_levels_pkey" PRIMARY KEY ("code")
);

-- The ladder of DESIGN §5 (defaults; an operator may change it, docs/licences.md).
INSERT INTO "license_levels" ("code", "rank", "yearly_price", "balance_limit", "coins", "matching_generations", "valid_days", "updated_at") VALUES
    ('FREE', 0,    0,   300,  3, 0,  14, CURRENT_TIMESTAMP),
    ('PRO1', 1,  100,  2000, 10, 1, 365, CURRENT_TIMESTAMP),
    ('PRO2', 2,  300,  7000, 20, 2, 365, CURRENT_TIMESTAMP),
    ('PRO3', 3,  600, 20000, 30, 3, 365, CURRENT_TIMESTAMP),
    ('PRO4', 4, 1200, 50000, 50, 3, 365, CURRENT_TIMESTAMP);

ALTER TABLE "license_levels"
    ADD CONSTRAINT "license_levels_sane" CHECK (
        "rank" >= 0 AND "yearly_price" >= 0 AND "balance_limit" >= 0 AND "coins" >= 0
        AND "matching_generations" BETWEEN 0 AND 3 AND "valid_days" > 0
        AND ("rank" = 0) = ("yearly_price" = 0)
    );

-- A bought licence has both ends; the free level has neither (its validity follows registration).
ALTER TABLE "users"
    ADD CONSTRAINT "users_license_period" CHECK (
        ("license_active_from" IS NULL) = ("license_active_until" IS NULL)
        AND ("license_active_until" IS NULL OR "license_active_until" > "license_active_from")
    );

-- CreateIndex
CREATE UNIQUE INDEX "license_levels_rank_key" ON "license_levels"("rank");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_license_level_fkey" FOREIGN KEY ("license_level") REFERENCES "license_levels"("code") ON DELETE RESTRICT ON UPDATE CASCADE;
