import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: ReactNode;
};

export const Field = ({ label, value, onChange, error, hint, ...props }: FieldProps) => {
  const id = useId();
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-note` : undefined}
        {...props}
      />
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
