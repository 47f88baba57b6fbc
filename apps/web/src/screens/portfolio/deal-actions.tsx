import {
  cancelPendingBuy,
  closeAllDeals,
  type Deal,
  type DealCommand,
  type getCoin,
  listDealCommands,
  quoteDealSale,
  type ResponseOf,
  sellDeal,
} from '@gridbot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/call-api';
import { isCatalogueCode } from '../../api/error-text';
import { useIdempotencyKey } from '../../api/idempotency-key';
import { useActionError, useCatalogueText } from '../../api/use-action-error';
import { invalidateAfter, useApiMutation, useApiQuery } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { showToast } from '../../shell/toast-store';
import { confirmAction } from '../../telegram/confirm';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Notice } from '../../ui/notice';
import { Card } from '../../ui/screen';
import { ActionProblem } from './action-problem';

/*
 * The deal controls of the coin page (docs/grid.md#deal-controls): "sell now" on an open deal,
 * "close all deals" and "cancel pending buy" for the coin. Each asks first — a sale with its
 * expected proceeds, PnL and platform fee from the best bid, marked as an estimate — then records
 * the command (with an Idempotency-Key, so a retry never sells twice); the bot carries it out and
 * the page follows it until it has ended, then says how.
 */

type CoinCard = ResponseOf<typeof getCoin>;
type Quote = ResponseOf<typeof quoteDealSale>;

/** How often a pending command is looked at: the list allows one call a second. */
const PENDING_POLL_MS = 2000;

/**
 * The coin's recent commands. The coin's controls follow them while one is pending (`follow`); the
 * deals read the same cache entry, so the page asks once however many deals it shows.
 */
const useDealCommands = (coinUserId: number, follow = false) =>
  useApiQuery(
    listDealCommands,
    { query: { coin_user_id: coinUserId } },
    {
      enabled: coinUserId > 0,
      refetchInterval: (query) =>
        follow && query.state.data?.commands.some((command) => command.status === 'pending')
          ? PENDING_POLL_MS
          : false,
    },
  );

/** The coin bot whose deals are listed (the deals list provides it to the deal controls inside it). */
export const DealCoin = createContext(0);

const pendingSaleOf = (commands: DealCommand[] | undefined, lotNumber: number) =>
  commands?.find(
    (command) =>
      command.status === 'pending' && command.kind !== 'cancel_buy' && command.lots.includes(lotNumber),
  );

/** "Selling…" beside a deal while the bot sells it. */
export const DealPendingBadge = ({ lotNumber }: { lotNumber: number }) => {
  const { t } = useTranslation();
  const commands = useDealCommands(useContext(DealCoin));
  if (!pendingSaleOf(commands.data?.commands, lotNumber)) return null;
  return (
    <span className="deal__pending" data-pending-sale={lotNumber}>
      <Badge tone="warning">{t('dealActions.selling')}</Badge>
    </span>
  );
};

/** The estimate's line: proceeds, quantity, price, PnL and the platform fee (≤ Telegram's 256 characters). */
const useEstimateText = () => {
  const { t } = useTranslation();
  const format = useFormat();
  return (quote: Quote, figures: Quote['totals']) =>
    t('dealActions.estimate', {
      proceeds: format.usdt(figures.expectedProceeds),
      qty: format.amount(figures.quantity),
      coin: quote.coin,
      price: format.amount(quote.price),
      pnl: format.usdt(figures.expectedPnl, { plus: true }),
      fee: format.usdt(figures.expectedTradeFee),
    });
};

/** Sends a command once the user confirmed it; a retry of the same action sends the same key. */
const useCommand = <E extends typeof sellDeal | typeof closeAllDeals | typeof cancelPendingBuy>(
  endpoint: E,
) => {
  const idempotency = useIdempotencyKey();
  const mutation = useApiMutation(endpoint, { onSuccess: () => idempotency.renew() });
  return { mutation, headers: idempotency.headers };
};

/** "Sell now at market" on an open deal, or its sale's progress. */
export const DealActions = ({ deal }: { deal: Deal }) => {
  const { t } = useTranslation();
  const coinUserId = useContext(DealCoin);
  const commands = useDealCommands(coinUserId);
  const estimate = useEstimateText();
  const { mutation, headers } = useCommand(sellDeal);
  const [asking, setAsking] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  if (deal.status !== 'open' || coinUserId === 0) return null;
  const pending = pendingSaleOf(commands.data?.commands, deal.lotNumber);
  const ask = async () => {
    setProblem(null);
    setAsking(true);
    try {
      const quote = await callApi(quoteDealSale, {
        query: { coin_user_id: coinUserId, lot: deal.lotNumber },
      });
      const lot = quote.lots[0];
      if (!lot) return;
      const ok = await confirmAction({
        title: t('dealActions.sellTitle', { lot: deal.lotNumber }),
        message: [
          estimate(quote, {
            quantity: lot.quantity,
            expectedProceeds: lot.expectedProceeds,
            expectedPnl: lot.expectedPnl,
            expectedTradeFee: lot.expectedTradeFee,
          }),
          t('dealActions.estimateNote'),
          t('dealActions.tpFirst'),
        ].join(' '),
        confirmText: t('dealActions.confirmSell'),
        destructive: true,
      });
      if (!ok) return;
      await mutation.mutateAsync({
        query: { coin_user_id: coinUserId, lot: deal.lotNumber },
        headers: headers(),
      });
    } catch (error) {
      setProblem(error);
    } finally {
      setAsking(false);
    }
  };
  return (
    <div className="deal__facts deal-actions" data-deal-actions={deal.lotNumber}>
      {pending ? (
        <p className="muted deal-actions__pending">{t('dealActions.selling')}</p>
      ) : (
        <Button variant="secondary" small busy={asking} onClick={() => void ask()}>
          {t('dealActions.sellNow')}
        </Button>
      )}
      {problem && !asking ? <ActionProblem error={problem} fallback="tryLater" /> : null}
    </div>
  );
};

type Outcome = { text: string; tone: 'info' | 'warning' };

/** How a finished command ended, in the reader's words. */
const useOutcomeText = (coin: string) => {
  const { t } = useTranslation();
  const format = useFormat();
  const catalogue = useCatalogueText();
  return (command: DealCommand): Outcome => {
    const result = command.result;
    const lots = result?.lots ?? [];
    const lot = command.lots[0] ?? 0;
    const refused = (code: string | null): Outcome => ({
      text: t('dealActions.outcome.refused', {
        reason: code && isCatalogueCode(code) ? catalogue(code) : (code ?? ''),
      }),
      tone: 'warning',
    });
    if (command.status === 'failed' || command.status === 'expired') return refused(command.code);
    if (command.kind === 'cancel_buy') {
      return command.status === 'already_filled'
        ? { text: t('dealActions.outcome.buyFilled', { lot }), tone: 'info' }
        : { text: t('dealActions.outcome.buyCancelled'), tone: 'info' };
    }
    if (command.status === 'already_sold') {
      const text =
        command.kind === 'sell_lot'
          ? t('dealActions.outcome.alreadySold', { lot })
          : t('dealActions.outcome.alreadySoldAll');
      return { text, tone: 'info' };
    }
    const partly = lots.find((l) => l.outcome === 'partly_sold');
    if (command.kind === 'sell_lot' && partly) {
      return {
        text: t('dealActions.outcome.partlySold', { lot, qty: format.amount(partly.quantity), coin }),
        tone: 'info',
      };
    }
    const pnl = format.usdt(result?.pnl ?? '0', { plus: true });
    const fee = format.usdt(result?.tradeFee ?? '0');
    const sold = lots.filter((l) => l.outcome === 'sold').length;
    const before = lots.filter((l) => l.outcome === 'already_sold').length;
    const text =
      command.kind === 'sell_lot'
        ? t('dealActions.outcome.sold', { lot, pnl, fee })
        : [
            t('dealActions.outcome.soldAll', { count: sold, pnl, fee }),
            before > 0 ? t('dealActions.outcome.someAlreadySold', { count: before }) : '',
          ]
            .filter(Boolean)
            .join(' ');
    return { text, tone: 'info' };
  };
};

/**
 * A command that was pending and has ended: the deals, the coin and its charts are read again, and
 * the outcome is told once.
 */
const useEndedCommands = (commands: DealCommand[] | undefined, tell: (command: DealCommand) => void) => {
  const client = useQueryClient();
  const pending = useRef(new Set<number>());
  const teller = useRef(tell);
  teller.current = tell;
  useEffect(() => {
    if (!commands) return;
    for (const command of commands) {
      if (command.status === 'pending') pending.current.add(command.id);
      else if (pending.current.delete(command.id)) {
        void invalidateAfter(client, sellDeal);
        teller.current(command);
      }
    }
  }, [commands, client]);
};

/** "Close all deals" and "Cancel pending buy" for the coin, with the last command's outcome. */
export const CoinDealControls = ({ card }: { card: CoinCard }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const errorText = useActionError();
  const estimate = useEstimateText();
  const { coin, ladder } = card;
  const commands = useDealCommands(coin.coinUserId, true);
  const outcomeOf = useOutcomeText(coin.coin);
  const closeAll = useCommand(closeAllDeals);
  const cancelBuy = useCommand(cancelPendingBuy);
  const [asking, setAsking] = useState<'close' | 'cancel' | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  useEndedCommands(commands.data?.commands, (command) => {
    const outcome = outcomeOf(command);
    showToast(outcome.text, outcome.tone === 'warning' ? 'error' : 'success');
  });

  const restingBuy = ladder.buys.find((buy) => buy.resting);
  const latest = commands.data?.commands[0];
  const pending = latest?.status === 'pending' ? latest : null;
  if (coin.stats.openDeals === 0 && !restingBuy && !latest) return null;

  const askCloseAll = async () => {
    setProblem(null);
    setAsking('close');
    try {
      const quote = await callApi(quoteDealSale, { query: { coin_user_id: coin.coinUserId } });
      const selling = quote.lots.filter((lot) => lot.sellable).length;
      const below = quote.lots.length - selling;
      const buysAfter = coin.running && !coin.settings.dry && coin.dryReason === null;
      const ok = await confirmAction({
        title: t('dealActions.closeAllTitle', { count: selling }),
        message: [
          estimate(quote, quote.totals),
          t('dealActions.estimateNote'),
          below > 0 ? t('dealActions.belowMin', { count: below }) : '',
          buysAfter ? t('dealActions.thenBuys') : '',
        ]
          .filter(Boolean)
          .join(' '),
        confirmText: t('dealActions.confirmCloseAll'),
        destructive: true,
      });
      if (ok)
        await closeAll.mutation.mutateAsync({
          query: { coin_user_id: coin.coinUserId },
          headers: closeAll.headers(),
        });
    } catch (error) {
      setProblem(error);
    } finally {
      setAsking(null);
    }
  };

  const askCancelBuy = async () => {
    if (!restingBuy) return;
    setProblem(null);
    setAsking('cancel');
    try {
      const ok = await confirmAction({
        title: t('dealActions.cancelBuyTitle'),
        message: t('dealActions.cancelBuyMessage', {
          lot: restingBuy.lotNumber,
          price: format.amount(restingBuy.price),
        }),
        confirmText: t('dealActions.confirmCancelBuy'),
        destructive: true,
      });
      if (ok)
        await cancelBuy.mutation.mutateAsync({
          query: { coin_user_id: coin.coinUserId },
          headers: cancelBuy.headers(),
        });
    } catch (error) {
      setProblem(error);
    } finally {
      setAsking(null);
    }
  };

  const outcome = latest && !pending ? outcomeOf(latest) : null;
  return (
    <Card title={t('dealActions.title')}>
      <div className="deal-controls" data-pending={pending ? pending.kind : undefined}>
        <p className="muted deal-controls__hint">{t('dealActions.hint')}</p>
        {pending ? (
          <Notice>
            <p className="deal-controls__text">
              {t(`dealActions.pending.${pending.kind}`, { lots: pending.lots.join(', ') })}
            </p>
          </Notice>
        ) : null}
        {outcome ? (
          <div data-outcome={latest?.status}>
            <Notice tone={outcome.tone}>
              <p className="deal-controls__text">{outcome.text}</p>
            </Notice>
          </div>
        ) : null}
        {problem && asking === null ? <ActionProblem error={problem} fallback="tryLater" /> : null}
        <div className="actions">
          {coin.stats.openDeals > 0 ? (
            <Button
              variant="danger"
              small
              busy={asking === 'close'}
              disabled={pending !== null || asking !== null}
              onClick={() => void askCloseAll()}
            >
              {t('dealActions.closeAll')}
            </Button>
          ) : null}
          {restingBuy ? (
            <Button
              variant="secondary"
              small
              busy={asking === 'cancel'}
              disabled={pending !== null || asking !== null}
              onClick={() => void askCancelBuy()}
            >
              {t('dealActions.cancelBuy')}
            </Button>
          ) : null}
        </div>
        {commands.isError && !commands.data ? (
          <p className="muted">{errorText(commands.error, 'tryLater')}</p>
        ) : null}
      </div>
    </Card>
  );
};
