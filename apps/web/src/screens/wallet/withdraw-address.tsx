import { addWithdrawAddress, updateWithdrawAddress } from '@gridbot/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { walletErrorText } from '../../api/error-text';
import { useApiMutation } from '../../api/use-api';
import { useProblemText } from '../../forms/use-problem-text';
import { withdrawAddressProblem } from '../../forms/wallet-forms';
import { useClosingConfirmation } from '../../telegram/closing-confirmation';
import { feedback } from '../../telegram/feedback';
import { Button } from '../../ui/button';
import { CopyButton } from '../../ui/copy-button';
import { Field } from '../../ui/field';
import { Notice } from '../../ui/notice';
import { Card } from '../../ui/screen';
import { usePatchWallet } from './wallet-cache';

/**
 * The saved withdrawal address, or the form to add or change it. The format is checked as typed
 * ('Withdrawal address format error'); the server's refusal shows in place with its detail, then its
 * message, then 'Unknown error' (docs/errors.md#client-texts).
 */
export const WithdrawAddress = ({ saved }: { saved: string | null }) => {
  const { t } = useTranslation();
  const problemText = useProblemText();
  const [editing, setEditing] = useState(saved === null);
  const [address, setAddress] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = withdrawAddressProblem(address);
  useClosingConfirmation(editing && address.trim() !== '');
  const patchWallet = usePatchWallet();
  const onSuccess = ({ withdrawAddress }: { withdrawAddress: string }) => {
    patchWallet({ withdrawAddress });
    feedback('success');
    setEditing(false);
    setAddress('');
    setTouched(false);
  };
  const onError = () => feedback('error');
  const add = useApiMutation(addWithdrawAddress, { onSuccess, onError });
  const update = useApiMutation(updateWithdrawAddress, { onSuccess, onError });
  const failed = add.error ?? update.error;
  if (!editing && saved) {
    return (
      <Card>
        <div className="card__head">
          <h2 className="card__title">{t('withdraw.address')}</h2>
          <Button variant="ghost" small onClick={() => setEditing(true)}>
            {t('withdraw.changeAddress')}
          </Button>
        </div>
        <div className="address-box saved-address">
          <span className="mono" data-testid="withdraw-address">
            {saved}
          </span>
          <CopyButton text={saved} label={t('wallet.copyWhat', { what: t('withdraw.address') })} />
        </div>
        {add.isSuccess || update.isSuccess ? (
          <p className="result-line" role="status">
            {t('withdraw.addressSaved')}
          </p>
        ) : null}
      </Card>
    );
  }
  const save = () => {
    setTouched(true);
    if (problem) {
      feedback('error');
      return;
    }
    const input = { query: { address: address.trim() } };
    if (saved) update.mutate(input);
    else add.mutate(input);
  };
  return (
    <Card title={t(saved ? 'withdraw.changeAddress' : 'withdraw.addAddress')}>
      <p className="card__text">{t(saved ? 'withdraw.changeAddressHint' : 'withdraw.noAddress')}</p>
      <Field
        label={t('withdraw.address')}
        placeholder={t('withdraw.addressPlaceholder')}
        value={address}
        onChange={(value) => {
          setAddress(value);
          add.reset();
          update.reset();
        }}
        onBlur={() => setTouched(address.trim() !== '')}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        error={touched ? problemText(problem) : null}
      />
      {failed ? (
        <div data-problem="address">
          <Notice tone="warning">{walletErrorText(failed) ?? t('errors.unknown')}</Notice>
        </div>
      ) : null}
      <div className="actions">
        {saved ? (
          <Button variant="ghost" onClick={() => setEditing(false)}>
            {t('common.cancel')}
          </Button>
        ) : null}
        <Button variant="secondary" busy={add.isPending || update.isPending} onClick={save}>
          {t('withdraw.saveAddress')}
        </Button>
      </div>
    </Card>
  );
};
