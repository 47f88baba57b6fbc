-- A coin is one coin bot per exchange account (docs/grid.md#coins-on-several-exchanges): the same
-- coin may run on two exchanges. Rows unique per (user, coin, removal) are unique per (account, coin,
-- removal) too, since an account belongs to one user: the new index cannot fail on existing rows.
-- DropIndex
DROP INDEX "coin_bots_user_id_coin_removal_id_key";

-- CreateIndex
CREATE INDEX "coin_bots_user_id_idx" ON "coin_bots"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "coin_bots_exchange_account_id_coin_removal_id_key" ON "coin_bots"("exchange_account_id", "coin", "removal_id");

-- The panel (same result type, so replaced in place): each coin says its exchange, and with keys on
-- several exchanges the account whose keys were refused is the one reported (a blocker to fix),
-- else the keys saved first.
CREATE OR REPLACE FUNCTION panel_row(p_user_id INTEGER, p_today DATE)
RETURNS TABLE (
  dry_all BOOLEAN,
  created_at TIMESTAMPTZ,
  license_active_from TIMESTAMPTZ,
  license_active_until TIMESTAMPTZ,
  code TEXT,
  rank INTEGER,
  yearly_price TEXT,
  balance_limit TEXT,
  coins_limit INTEGER,
  matching_generations INTEGER,
  valid_days INTEGER,
  fee BIGINT,
  exchange TEXT,
  check_problem TEXT,
  can_trade BOOLEAN,
  can_withdraw BOOLEAN,
  pnl_today TEXT,
  pnl_total TEXT,
  first_started_at TIMESTAMPTZ,
  coins JSON
)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    SELECT u.dry_all, u.created_at::timestamptz, u.license_active_from::timestamptz,
           u.license_active_until::timestamptz,
           ll.code::text, ll.rank::integer, ll.yearly_price::text, ll.balance_limit::text,
           ll.coins::integer, ll.matching_generations::integer, ll.valid_days::integer,
           (SELECT la.balance FROM ledger_accounts la WHERE la.user_id = u.id AND la.sub_balance = 'fee')::bigint,
           a.exchange::text, a.check_problem::text, a.can_trade, a.can_withdraw,
           (SELECT COALESCE(SUM(dp.realized_pnl), 0) FROM daily_pnl dp
             WHERE dp.user_id = u.id AND dp.date = p_today)::text,
           booked.total::text, booked.first_started_at,
           COALESCE((
             SELECT json_agg(json_build_object(
                      'id', b.id, 'coin', b.coin, 'exchange', ba.exchange, 'running', b.running, 'dry', b.dry,
                      'max_trades', b.max_trades, 'order_size', b.order_size::text,
                      'realized_pnl', b.realized_pnl::text, 'last_error', b.last_error,
                      'updated_at', COALESCE(b.reconciled_at, b.updated_at), 'open_deals', COALESCE(l.n, 0),
                      'open_qty', COALESCE(l.qty, 0)::text, 'open_cost', COALESCE(l.cost, 0)::text,
                      'today', COALESCE(d.realized_pnl, 0)::text, 'price', m.price::text,
                      'next_seq', b.next_seq, 'lot_seqs', COALESCE(l.seqs, ARRAY[]::integer[]),
                      'orders', CASE WHEN b.running THEN (
                        SELECT json_agg(json_build_object('key', c.key, 'status', o.status))
                          FROM (
                            SELECT 'tp:' || s.seq AS key FROM unnest(l.seqs) AS s(seq)
                            UNION ALL SELECT 'entry:' || b.next_seq
                            UNION ALL SELECT 'buy:' || b.next_seq
                          ) c
                          CROSS JOIN LATERAL (
                            SELECT o.status FROM orders o
                             WHERE o.coin_bot_id = b.id AND o.key = c.key
                             ORDER BY o.id DESC LIMIT 1
                          ) o
                      ) END) ORDER BY b.id)
               FROM coin_bots b
               JOIN exchange_accounts ba ON ba.id = b.exchange_account_id
               LEFT JOIN LATERAL (
                 SELECT COUNT(*) AS n, SUM(lo.qty) AS qty, SUM(lo.cost) AS cost,
                        array_agg(lo.seq ORDER BY lo.seq) AS seqs
                   FROM lots lo WHERE lo.coin_bot_id = b.id AND lo.closed_at IS NULL
               ) l ON true
               LEFT JOIN daily_pnl d ON d.coin_bot_id = b.id AND d.date = p_today
               LEFT JOIN price_marks m ON m.venue = ba.exchange || ':' || ba.mode AND m.symbol = b.symbol
              WHERE b.user_id = u.id AND b.deleted_at IS NULL
           ), '[]'::json)
      FROM users u
      JOIN license_levels ll ON ll.code = u.license_level
      LEFT JOIN LATERAL (
        SELECT ea.exchange, ea.check_problem, ea.can_trade, ea.can_withdraw
          FROM exchange_accounts ea WHERE ea.user_id = u.id
         ORDER BY COALESCE(ea.check_problem LIKE 'API\_KEY\_%', false) DESC, ea.id LIMIT 1
      ) a ON true
      -- Every coin bot the user ever had, removed ones included: their PnL stays booked.
      LEFT JOIN LATERAL (
        SELECT COALESCE(SUM(ab.realized_pnl), 0) AS total, MIN(ab.started_at)::timestamptz AS first_started_at
          FROM coin_bots ab WHERE ab.user_id = u.id
      ) booked ON true
     WHERE u.id = p_user_id;
END
$$;
