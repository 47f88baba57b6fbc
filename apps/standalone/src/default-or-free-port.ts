/**
 * Starts a listener on `port`; when that is a default port (not one the operator set) another
 * program already holds, on a free port instead — a demo is not worth failing for it (the banner
 * and the run file say where it listens).
 */
export const onDefaultOrFreePort = async <T>(
  what: string,
  port: number,
  explicit: boolean,
  logger: { warn: (fields: object, message: string) => void },
  start: (port: number) => Promise<T>,
): Promise<T> => {
  try {
    return await start(port);
  } catch (error) {
    if (explicit || port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    logger.warn({ port }, `${what}: port ${port} is taken, listening on a free port`);
    return start(0);
  }
};
