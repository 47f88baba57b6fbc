import { signOf } from '../format/decimal';
import { useFormat } from '../format/use-format';

/**
 * A USDT amount from its decimal string; `signed` colours it and shows a plus. `exact` shows every
 * micro-USDT (balances: a rounded 5.00 for 4.999999 would show money that is not there); which
 * figure takes which form: docs/conventions.md#money-and-numbers.
 */
export const Usdt = ({
  value,
  signed = false,
  unit = true,
  exact = false,
}: {
  value: string;
  signed?: boolean;
  unit?: boolean;
  exact?: boolean;
}) => {
  const format = useFormat();
  const sign = signed ? signOf(value) : 'zero';
  return (
    <span className={sign === 'zero' ? undefined : sign}>
      {exact ? format.usdtExact(value, { plus: signed }) : format.usdt(value, { plus: signed })}
      {unit ? <span className="unit"> USDT</span> : null}
    </span>
  );
};

export const Pct = ({ value, signed = false }: { value: string; signed?: boolean }) => {
  const format = useFormat();
  const sign = signed ? signOf(value) : 'zero';
  return <span className={sign === 'zero' ? undefined : sign}>{format.pct(value, { plus: signed })}</span>;
};
