import { AlertIcon, CheckIcon } from '../../ui/icons';

/** The head of a money result shown in place of its form: what happened, in one line each. */
export const ResultHeader = ({
  tone,
  title,
  text,
}: {
  tone: 'positive' | 'negative';
  title: string;
  text: string;
}) => (
  <div className={`result-header result-header--${tone}`} role="status">
    <span className="result-header__icon" aria-hidden="true">
      {tone === 'positive' ? <CheckIcon /> : <AlertIcon />}
    </span>
    <h2 className="result-header__title">{title}</h2>
    <p className="result-header__text">{text}</p>
  </div>
);
