import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { signOf } from '../../format/decimal';
import { feedback } from '../../telegram/feedback';
import { Field } from '../../ui/field';

/**
 * A USDT amount typed by a person (a decimal comma is fine), with "Max" filling in the whole
 * balance to the micro-unit.
 */
export const AmountField = ({
  label,
  value,
  onChange,
  max,
  error,
  hint,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  max: string;
  error: string | null;
  hint?: ReactNode;
}) => {
  const { t } = useTranslation();
  return (
    <Field
      label={label}
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onChange={onChange}
      error={error}
      hint={hint}
      end={
        <>
          <span className="field__unit" aria-hidden="true">
            USDT
          </span>
          <button
            type="button"
            className="field__max"
            disabled={signOf(max) !== 'positive'}
            onClick={() => {
              feedback('selection');
              onChange(max);
            }}
          >
            {t('wallet.max')}
          </button>
        </>
      }
    />
  );
};
