import { describe, expect, it } from 'vitest';
import { type EndpointDefinition, endpoints } from '../src/index';

/**
 * Calls that only read. Everything else changes data and must say which reads it makes stale
 * (`invalidates`), so the web refreshes them after a success. A new contract fails here until it
 * is put on one side or the other.
 */
const READS = new Set([
  'config.get',
  'config.getAppConfig',
  'demo.getLaunchData',
  'home.checkKeys',
  'home.getCoinRating',
  'home.getDailyCoinsPnl',
  'home.getPanel',
  'home.listDailyPnl',
  'home.listMonthlyPnl',
  'portfolio.getCoin',
  'portfolio.getCoinChart',
  'portfolio.getPortfolio',
  'portfolio.getProfitChart',
  'portfolio.listCoinActivity',
  'portfolio.listAddableCoins',
  'portfolio.listCoinTrades',
  'portfolio.listDealCommands',
  'portfolio.quoteDealSale',
  'partners.getMatchingBonusDetail',
  'partners.getNetworkExpansion',
  'partners.getPartnerProfile',
  'partners.getOverview',
  'partners.getReferralBonusDetail',
  'partners.getReferralLink',
  'partners.getRewards',
  'partners.getStructure',
  'partners.listMatchingBonusHistory',
  'partners.listMyPartners',
  'partners.listReferralBonusHistory',
  'wallet.findRecipient',
  'wallet.getDepositAddress',
  'wallet.getWallet',
  'profile.getProfile',
  // CSV exports and their signed links: they read, and a link is state of nobody's (a signed token).
  'export.createLink',
  'export.downloadDeals',
  'export.downloadDailyPnl',
  'export.downloadWalletHistory',
  'export.downloadByLink',
  // Replays settings over cached candles: it stores candles, never anything a read shows.
  'portfolio.backtestCoin',
]);

/**
 * Sign-in creates a session, not data any cached read holds: the session starts a fresh cache.
 * Ending every session leaves the app signed out, with nothing left to refresh.
 */
const SESSION = new Set(['auth.login', 'auth.signInTelegram', 'auth.logoutAll']);

const all: readonly EndpointDefinition[] = endpoints;
const mutations = all.filter((endpoint) => !READS.has(endpoint.id) && !SESSION.has(endpoint.id));

describe('cache invalidations declared with the mutation contracts', () => {
  it('classifies only existing contracts', () => {
    const ids = new Set(all.map((endpoint) => endpoint.id));
    for (const id of [...READS, ...SESSION]) expect(ids.has(id), id).toBe(true);
  });

  it('has every call that changes data name the reads it changes', () => {
    expect(mutations.length).toBeGreaterThanOrEqual(20);
    for (const endpoint of mutations) {
      expect(endpoint.invalidates?.length ?? 0, endpoint.id).toBeGreaterThan(0);
    }
  });

  it('names only read contracts, each once', () => {
    for (const endpoint of mutations) {
      const named = endpoint.invalidates ?? [];
      expect(new Set(named).size, endpoint.id).toBe(named.length);
      for (const id of named) expect(READS.has(id), `${endpoint.id} → ${id}`).toBe(true);
    }
  });

  it('leaves reads and sign-in without invalidations', () => {
    for (const endpoint of all.filter((endpoint) => !mutations.includes(endpoint))) {
      expect(endpoint.invalidates, endpoint.id).toBeUndefined();
    }
  });

  it.each([
    ['home.startTrading', 'home.getPanel'],
    ['portfolio.editCoinSettings', 'portfolio.getCoin'],
    ['portfolio.addCoin', 'portfolio.listAddableCoins'],
    ['wallet.withdrawMoney', 'wallet.getWallet'],
    ['wallet.createWallet', 'wallet.getDepositAddress'],
    ['profile.saveApiKey', 'profile.getProfile'],
    ['config.set', 'config.get'],
  ])('%s refreshes %s', (mutation, read) => {
    expect(all.find((endpoint) => endpoint.id === mutation)?.invalidates).toContain(read);
  });

  it("refreshes the coin chart wherever the coin page's ladder changes (not for adding or removing a coin)", () => {
    const ladderChanges = mutations
      .filter((endpoint) => endpoint.invalidates?.includes('portfolio.getCoin'))
      .map((endpoint) => endpoint.id)
      .filter((id) => id !== 'portfolio.addCoin' && id !== 'portfolio.deleteCoin');
    expect(ladderChanges.length).toBeGreaterThanOrEqual(7);
    for (const id of ladderChanges)
      expect(all.find((endpoint) => endpoint.id === id)?.invalidates, id).toContain('portfolio.getCoinChart');
  });
});
