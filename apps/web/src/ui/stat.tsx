import type { ReactNode } from 'react';
import { type Sign, signOf } from '../format/decimal';

export const Stat = ({ label, value, tone }: { label: ReactNode; value: ReactNode; tone?: Sign }) => (
  <div className="stat">
    <div className="stat__label">{label}</div>
    <div className={`stat__value${tone && tone !== 'zero' ? ` ${tone}` : ''}`}>{value}</div>
  </div>
);

export const Stats = ({ children, columns = 2 }: { children: ReactNode; columns?: 2 | 3 }) => (
  <div className={`stats${columns === 3 ? ' stats--3' : ''}`}>{children}</div>
);

export const KeyValue = ({ label, value }: { label: ReactNode; value: ReactNode }) => (
  <div className="key-value">
    <span className="key-value__key">{label}</span>
    <span className="key-value__value">{value}</span>
  </div>
);

/** Class for a signed decimal string: green above zero, red below. */
export const toneOf = (value: string): string => {
  const sign = signOf(value);
  return sign === 'zero' ? '' : sign;
};
