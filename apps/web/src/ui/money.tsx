import { signOf } from '../format/decimal';
import { useFormat } from '../format/use-format';

/** A USDT amount from its decimal string; `signed` colours it and shows a plus. */
export const Usdt = ({
  value,
  signed = false,
  unit = true,
}: {
  value: string;
  signed?: boolean;
  unit?: boolean;
}) => {
  const format = useFormat();
  const sign = signed ? signOf(value) : 'zero';
  return (
    <span className={sign === 'zero' ? undefined : sign}>
      {format.usdt(value, { plus: signed })}
      {unit ? <span className="unit"> USDT</span> : null}
    </span>
  );
};

export const Pct = ({ value, signed = false }: { value: string; signed?: boolean }) => {
  const format = useFormat();
  const sign = signed ? signOf(value) : 'zero';
  return <span className={sign === 'zero' ? undefined : sign}>{format.pct(value, { plus: signed })}</span>;
};
