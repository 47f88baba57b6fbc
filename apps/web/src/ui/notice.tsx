import type { ReactNode } from 'react';
import { AlertIcon, InfoIcon } from './icons';

export const Notice = ({ tone = 'info', children }: { tone?: 'info' | 'warning'; children: ReactNode }) => (
  <div
    className={`notice${tone === 'warning' ? ' notice--warning' : ''}`}
    role={tone === 'warning' ? 'alert' : 'note'}
  >
    {tone === 'warning' ? <AlertIcon /> : <InfoIcon />}
    <div>{children}</div>
  </div>
);
