import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: ReactNode;
  /** A control inside the input's right end (a "Max" button, a unit). */
  end?: ReactNode;
};

export const Field = ({ label, value, onChange, error, hint, end, ...props }: FieldProps) => {
  const id = useId();
  const input = (
    <input
      id={id}
      className="field__input"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      aria-invalid={error ? true : undefined}
      aria-describedby={error || hint ? `${id}-note` : undefined}
      {...props}
    />
  );
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {end ? (
        <div className="field__control">
          {input}
          <span className="field__end">{end}</span>
        </div>
      ) : (
        input
      )}
      {error ? (
        <span id={`${id}-note`} className="field__error" role="alert">
          {error}
        </span>
      ) : hint ? (
        <span id={`${id}-note`} className="field__hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
};
