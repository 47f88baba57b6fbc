/** A bad or missing environment variable: the process stops with this message. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
