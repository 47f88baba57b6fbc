import { createExportLink, type RequestOf } from '@gridbot/contracts';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../api/api-error';
import { callApi } from '../../api/call-api';
import { useActionError } from '../../api/use-action-error';
import { downloadFromUrl } from '../../telegram/download-file';
import { Button } from '../../ui/button';
import { DownloadIcon } from '../../ui/icons';

/** Which export: the query of `POST /export/link` (docs/product.md#exports). */
export type ExportQuery = RequestOf<typeof createExportLink>['query'];

const apiBase = (import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/$/, '');

/** A CSV export in two steps: a signed link of a few minutes, then the client's download of it. */
const exportCsv = async (query: ExportQuery) => {
  const link = await callApi(createExportLink, { query });
  await downloadFromUrl(new URL(`${apiBase}${link.path}`, window.location.href).href, link.fileName);
};

/**
 * An "Export CSV" button: busy while the link is made and handed over, the failure's text in place
 * under it. Inside Telegram the client downloads the file itself (Telegram's download prompt), so
 * the link carries its own short-lived token instead of the session (docs/security.md#download-links).
 */
export const ExportCsv = ({ query, label }: { query: ExportQuery; label?: string }) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  const action = useMutation<void, ApiError, ExportQuery>({ mutationFn: exportCsv });
  return (
    <div className="export-csv">
      <Button
        variant="secondary"
        small
        busy={action.isPending}
        onClick={() => action.mutate(query)}
        data-export={query.file}
      >
        <DownloadIcon />
        {label ?? t('csvExport.button')}
      </Button>
      {action.isError ? (
        <p className="field__error" role="alert">
          {errorText(action.error, 'tryLater')}
        </p>
      ) : null}
    </div>
  );
};

/** The PnL statistics screen's exports: PnL by UTC day, and every deal of every coin. */
export const PnlExports = () => {
  const { t } = useTranslation();
  return (
    <div className="export-csv export-csv--group">
      <div className="export-csv__buttons">
        <ExportCsv query={{ file: 'pnl_daily' }} label={t('csvExport.pnlDays')} />
        <ExportCsv query={{ file: 'deals' }} label={t('csvExport.allDeals')} />
      </div>
      <p className="export-csv__hint">{t('csvExport.hint')}</p>
    </div>
  );
};
