import { useStore } from '../state/create-store';
import { type NativeButtonKind, type NativeButtonParams, useNativeButton } from '../telegram/native-button';
import { nativeControlsStore } from '../telegram/native-controls';
import { Button } from './button';

type ActionProps = NativeButtonParams & { kind: NativeButtonKind };

/**
 * A form's primary (or secondary) action: Telegram's MainButton / SecondaryButton inside Telegram,
 * an ordinary full-width button in the page elsewhere (docs/decisions.md#telegram-native-mini-app-issue-10).
 */
const NativeOrPageAction = ({ kind, text, onClick, busy, disabled }: ActionProps) => {
  const native = useStore(nativeControlsStore)[kind];
  useNativeButton(native ? kind : null, { text, onClick, busy, disabled });
  if (native) return null;
  return (
    <Button
      block
      variant={kind === 'main' ? 'primary' : 'secondary'}
      busy={busy}
      disabled={disabled}
      onClick={onClick}
      data-action={kind}
    >
      {text}
    </Button>
  );
};

export const MainAction = (props: NativeButtonParams) => <NativeOrPageAction kind="main" {...props} />;

export const SecondaryAction = (props: NativeButtonParams) => (
  <NativeOrPageAction kind="secondary" {...props} />
);
