/*
 * Times in candle files and --dry-from are UTC unless they carry a zone: the host's zone never
 * enters (Date.parse would read a zoneless "2018-01-25T00:00" in local time), and impossible
 * dates such as 2021-02-30 are refused instead of rolling over into March.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Unix ms of an ISO date or date-time (UTC when no zone is given), or a reason it is not one. */
export const parseUtcTime = (text: string): number | string => {
  const m = ISO.exec(text);
  if (!m) return 'is not an ISO time such as 2018-01-25T00:00:00Z';
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12) return `has no month ${mo}`;
  if (day < 1 || day > daysIn(year, month)) return `is not a date: ${y}-${mo} has no day ${d}`;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return 'has an impossible time of day';
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  let at = Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s), ms);
  if (year < 100) at = new Date(at).setUTCFullYear(year);
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
    if (Number(digits.slice(0, 2)) > 23 || Number(digits.slice(2)) > 59)
      return `has an impossible zone ${zone}`;
    at -= sign * offsetMinutes * 60_000;
  }
  return at;
};
