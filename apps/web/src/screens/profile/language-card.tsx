import { getConfig, setConfig } from '@gridbot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeyOf } from '../../api/query-keys';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation } from '../../api/use-api';
import { LANGUAGES, type Language } from '../../i18n/language';
import { changeLanguage, currentLanguage } from '../../i18n/setup';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { showToast } from '../../shell/toast-store';
import { feedback } from '../../telegram/feedback';
import { Card } from '../../ui/screen';

/** Language names are written in their own language, the same in every translation. */
const NAMES: Record<Language, string> = { en: 'English', ru: 'Русский', cn: '中文' };

/** The user's language, stored on the server (config `localization`, lower-cased). */
export const LanguageCard = () => {
  const { t } = useTranslation();
  const client = useQueryClient();
  const errorText = useActionError();
  const current = currentLanguage();
  const save = useApiMutation(setConfig, {
    onSuccess: async (config) => {
      client.setQueryData(queryKeyOf(getConfig, INITIAL_INPUTS.localization), config);
      await changeLanguage((config.data ?? current) as Language);
      showToast(t('toast.languageSaved'), 'success');
    },
    onError: (error) => showToast(errorText(error, 'tryLater'), 'error'),
  });
  return (
    <Card title={t('profile.language')}>
      <fieldset className="language-options">
        <legend className="visually-hidden">{t('profile.language')}</legend>
        {LANGUAGES.map((language) => (
          <button
            key={language}
            type="button"
            className="language-option"
            lang={language === 'cn' ? 'zh-CN' : language}
            aria-pressed={language === current}
            data-language={language}
            disabled={save.isPending}
            onClick={() => {
              if (language === current) return;
              feedback('selection');
              save.mutate({ params: { name: 'localization' }, query: { data: language } });
            }}
          >
            {NAMES[language]}
          </button>
        ))}
      </fieldset>
    </Card>
  );
};
