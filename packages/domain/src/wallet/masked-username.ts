/**
 * A username as a sender may see it before and after a transfer (docs/wallet.md#internal-transfer):
 * enough to recognise the person they meant, never enough to learn a handle. At most half of the
 * characters show, and never the whole name:
 *
 * - 8 or more characters: the first 2 and the last 2 (`demo_trader` → `de…er`);
 * - 4 to 7: the first and the last (`alice` → `a…e`);
 * - 2 or 3: the first only (`bob` → `b…`);
 * - 1: nothing but the ellipsis.
 *
 * Empty or missing: null (the client says "no username").
 */
export const maskUsername = (username: string | null | undefined): string | null => {
  const chars = Array.from(username?.trim() ?? '');
  const n = chars.length;
  if (n === 0) return null;
  const [head, tail] = n >= 8 ? [2, 2] : n >= 4 ? [1, 1] : n >= 2 ? [1, 0] : [0, 0];
  return `${chars.slice(0, head).join('')}…${chars.slice(n - tail).join('')}`;
};
