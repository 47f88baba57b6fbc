import type { ReactNode } from 'react';

export type BadgeTone = 'accent' | 'positive' | 'negative' | 'warning' | 'neutral';

export const Badge = ({ tone = 'accent', children }: { tone?: BadgeTone; children: ReactNode }) => (
  <span className={`badge${tone === 'accent' ? '' : ` badge--${tone}`}`}>{children}</span>
);
