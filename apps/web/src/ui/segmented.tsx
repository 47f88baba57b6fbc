import { feedback } from '../telegram/feedback';

type SegmentedProps<T extends string> = {
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
  label: string;
  /** Options in two columns (several long labels), instead of one scrolling row. */
  grid?: boolean;
};

export const Segmented = <T extends string>({ value, options, onChange, label, grid }: SegmentedProps<T>) => (
  <fieldset className={grid ? 'segmented segmented--grid' : 'segmented'}>
    <legend className="visually-hidden">{label}</legend>
    {options.map((option) => (
      <button
        key={option.value}
        type="button"
        className="segmented__item"
        aria-pressed={option.value === value}
        onClick={() => {
          if (option.value !== value) feedback('selection');
          onChange(option.value);
        }}
      >
        {option.label}
      </button>
    ))}
  </fieldset>
);
