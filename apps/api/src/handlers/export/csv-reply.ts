import { Readable } from 'node:stream';
import type { EndpointDefinition } from '@gridbot/contracts';
import type { OpenedExport, ServiceContext } from '@gridbot/services';
import { type HandlerInput, handle } from '../../handle';

/**
 * A CSV export's answer (docs/product.md#csv-rules): the service opens it — refusals are thrown
 * before anything is sent — and its chunks are streamed as they are read, never held whole. The
 * file is personal: it is downloaded as an attachment and never cached.
 */
export const handleCsv = <E extends EndpointDefinition>(
  endpoint: E,
  open: (ctx: ServiceContext, input: HandlerInput<E>) => Promise<OpenedExport>,
) =>
  handle(endpoint, async (ctx, input, _request, reply) => {
    const file = await open(ctx, input);
    void reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${file.fileName}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      )
      .header('cache-control', 'no-store')
      .send(Readable.from(file.chunks));
    // The answer is the stream just sent, not a value for the contract's serializer.
    return reply as never;
  });
