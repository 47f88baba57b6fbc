import { useEffect, useState } from 'react';

/**
 * `value` once it has stayed the same for `delayMs` (typing has stopped), and a way to take the
 * current value at once (a button that asks now). Compare by identity: pass a string key.
 */
export const useDebouncedValue = <T>(value: T, delayMs: number): [T, () => void] => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return [settled, () => setSettled(value)];
};
