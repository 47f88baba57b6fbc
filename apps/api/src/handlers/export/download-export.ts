import { downloadExport } from '@gridbot/contracts';
import { openExportLink } from '@gridbot/services';
import { handleCsv } from './csv-reply';

/** docs/security.md#download-links: the token is the whole credential; request logs never show it. */
export const downloadExportHandler = handleCsv(downloadExport, (ctx, { query }) =>
  openExportLink(ctx, { token: query.token }),
);
