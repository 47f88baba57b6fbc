import { Link, useMatches } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES, type TabName } from '../router/route-table';
import { tapFeedback } from '../telegram/haptics';
import { PanelIcon, PartnersIcon, PortfolioIcon, ProfileIcon, WalletIcon } from './tab-icons';

type Tab = { name: TabName; to: string; Icon: ComponentType<{ filled?: boolean }> };

/** docs/product.md#screens: wallet, portfolio, panel (raised centre button), partners, profile. */
const TABS: readonly Tab[] = [
  { name: 'wallet', to: ROUTES.wallet.path, Icon: WalletIcon },
  { name: 'portfolio', to: ROUTES.portfolio.path, Icon: PortfolioIcon },
  { name: 'panel', to: ROUTES.panel.path, Icon: PanelIcon },
  { name: 'partners', to: ROUTES.partners.path, Icon: PartnersIcon },
  { name: 'profile', to: ROUTES.profile.path, Icon: ProfileIcon },
];

export const useCurrentTab = (): TabName | null => {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index--) {
    const tab = matches[index]?.staticData.tab;
    if (tab) return tab;
  }
  return null;
};

export const TabBar = () => {
  const { t } = useTranslation();
  const current = useCurrentTab();
  return (
    <nav className="tabbar" aria-label={t('common.appName')}>
      {TABS.map(({ name, to, Icon }) => {
        const active = current === name;
        const center = name === 'panel';
        return (
          <Link
            key={name}
            to={to}
            className={`tab${center ? ' tab--center' : ''}`}
            aria-current={active ? 'page' : undefined}
            data-tab={name}
            onClick={() => tapFeedback()}
          >
            {center ? (
              <span className="tab__bubble">
                <Icon filled={active} />
              </span>
            ) : (
              <Icon filled={active} />
            )}
            <span className="tab__label">{t(`nav.${name}`)}</span>
          </Link>
        );
      })}
    </nav>
  );
};
