import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type LoadEnvOptions, loadEnv } from '../src';

// No Docker engine runs here, so docker-compose.yml is checked the way compose would read it: every
// app service's command is an app's entry point, its environment (the service's own, .env from
// .env.example, secrets as the files compose mounts) passes that app's config schema with the
// secrets the app requires, every secret it names is mounted, and every long-running service
// has a healthcheck on the port its process serves readiness on (docs/deploy.md).
const repo = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, repo), 'utf8');

type Service = {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  secrets?: string[];
  profiles?: string[];
  deploy?: { replicas?: number };
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
};
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
  volumes: Record<string, unknown>;
};
const services = compose.services;

/** What each app's main.ts asks loadEnv for (read from the source, so the two cannot drift). */
const requiredSecrets = (app: string): LoadEnvOptions['require'] => {
  const match = /require:\s*\[([^\]]*)\]/.exec(read(`apps/${app}/src/main.ts`));
  if (!match) throw new Error(`apps/${app}/src/main.ts: no loadEnv require list`);
  return [...(match[1] ?? '').matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]) as LoadEnvOptions['require'];
};

/** .env from .env.example with the operator's values filled in where the example has a placeholder. */
const dotEnv = (): Record<string, string> => {
  const values: Record<string, string> = {};
  for (const line of read('.env.example').split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) values[match[1] as string] = match[2] as string;
  }
  return {
    ...values,
    BOT_USERNAME: 'gridbot_operator_bot',
    PUBLIC_HOST: 'grid.example.org',
    SUPPORT_URL: 'https://t.me/grid_support',
    WALLET_XPUB: `xpub${'6CUGRUonZSQ4TWtTMmzXdrXDtypWKiKrhko4egpiMZbpiaQL2jkwSB1icqYh2cfDfVxdx4df189oLKnC5fSwqPfgyP3hooxujYzAu3fDVmz'.slice(0, 107)}`,
  };
};

/** The secret files compose mounts at /run/secrets/<name>, with values an operator would make. */
const secretDir = mkdtempSync(join(tmpdir(), 'gridbot-compose-'));
const secretValues: Record<string, string> = {
  database_url: 'postgres://gridbot:4f9c1d@postgres:5432/gridbot',
  metrics_token: randomBytes(24).toString('hex'),
  postgres_password: '4f9c1d',
  bot_token: `7654321:${randomBytes(26).toString('base64url')}`,
  jwt_secret: randomBytes(32).toString('hex'),
  root_referral_code: randomBytes(12).toString('hex'),
  secrets_key: randomBytes(32).toString('hex'),
  hot_wallet_key: randomBytes(32).toString('hex'),
};
for (const [name, value] of Object.entries(secretValues)) writeFileSync(join(secretDir, name), value);

/**
 * `${VAR}`, `${VAR:-default}` and `${VAR:?message}` as compose substitutes them from .env: an unset
 * or empty `:?` variable stops compose with its message.
 */
const substitute = (value: string, variables: Record<string, string>) =>
  value.replace(
    /\$\{([A-Z_]+)(?:(:-|:\?)([^}]*))?\}/g,
    (_all, name: string, kind: string | undefined, text: string | undefined) => {
      const given = variables[name];
      if (given) return given;
      if (kind === ':?') throw new Error(`compose: ${name}: ${text}`);
      return kind === ':-' ? (text ?? '') : '';
    },
  );

const containerEnv = (service: Service, profile: string | undefined): Record<string, string> => {
  const env: Record<string, string> = { ...dotEnv() };
  const variables = { ...dotEnv(), ...(profile ? { COMPOSE_PROFILES: profile } : {}) };
  for (const [name, raw] of Object.entries(service.environment ?? {})) {
    const value = substitute(String(raw), variables);
    env[name] = value.startsWith('/run/secrets/')
      ? join(secretDir, value.slice('/run/secrets/'.length))
      : value;
  }
  return env;
};

const APPS = ['api', 'worker', 'watcher', 'bot'] as const;
/** Where each process answers /readyz (docs/operations.md#ports). */
const READY_PORT: Record<string, string> = {
  api: '3000',
  worker: '9101',
  watcher: '9102',
  bot: '9103',
  sandbox: '9104',
};

describe('docker-compose.yml', () => {
  it('describes the stack: postgres, redis, a migrate job, api ×2 behind the TLS front, worker ×2, watcher, bot', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['api', 'bot', 'migrate', 'postgres', 'redis', 'sandbox', 'tls-front', 'watcher', 'worker'].sort(),
    );
    expect(services.api?.deploy?.replicas).toBe(2);
    expect(services.worker?.deploy?.replicas).toBe(2);
    expect(services.bot?.deploy?.replicas ?? 1).toBe(1);
    expect(services.migrate?.command).toEqual(['npm', 'run', 'db:migrate', '--', 'deploy']);
    expect(services['tls-front']?.depends_on?.api?.condition).toBe('service_healthy');
    for (const app of APPS) {
      expect(services[app]?.depends_on?.migrate?.condition).toBe('service_completed_successfully');
    }
  });

  it.each(APPS)(
    '%s runs its entry point with an environment its config accepts, on testnet and on the sandbox',
    (app) => {
      const service = services[app] as Service;
      expect(service.command).toEqual(['node', `apps/${app}/dist/main.js`]);
      expect(existsSync(new URL(`apps/${app}/src/main.ts`, repo))).toBe(true);
      expect(read(`apps/${app}/package.json`)).toContain('src/main.ts');
      for (const profile of [undefined, 'sandbox', 'live']) {
        const env = loadEnv(containerEnv(service, profile), { require: requiredSecrets(app) });
        expect(env.NODE_ENV).toBe('production');
        expect(env.DEMO).toBe(false);
        expect(env.EXCHANGE_MODE).toBe(profile ?? 'testnet');
        expect(env.DATABASE_URL).toBe(secretValues.database_url);
        expect(env.REDIS_URL).toBe('redis://redis:6379');
      }
    },
  );

  it('mounts every secret a service names, and secrets only as files', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [variable, value] of Object.entries(service.environment ?? {})) {
        if (!String(value).startsWith('/run/secrets/')) continue;
        const secret = String(value).slice('/run/secrets/'.length);
        expect({ service: name, variable, mounted: service.secrets?.includes(secret) }).toEqual({
          service: name,
          variable,
          mounted: true,
        });
        expect(compose.secrets[secret]?.file).toBe(`./secrets/${secret}`);
      }
      for (const secret of [
        'BOT_TOKEN',
        'JWT_SECRET',
        'SECRETS_KEY',
        'ROOT_REFERRAL_CODE',
        'DATABASE_URL',
        'METRICS_TOKEN',
      ]) {
        expect(service.environment?.[secret]).toBeUndefined();
      }
    }
    expect(read('deploy/make-secrets.sh')).toContain('secrets');
    for (const secret of Object.keys(compose.secrets))
      expect(read('deploy/make-secrets.sh')).toContain(secret);
  });

  it('the watcher has its hot-wallet key and the extended public key; the bot its public URL', () => {
    const watcher = loadEnv(containerEnv(services.watcher as Service, undefined), { require: [] });
    expect(watcher.HOT_WALLET_KEY_FILE).toBe(join(secretDir, 'hot_wallet_key'));
    expect(watcher.WALLET_XPUB).toMatch(/^xpub/);
    expect(
      loadEnv(containerEnv(services.bot as Service, undefined), { require: ['BOT_TOKEN'] }).PUBLIC_URL,
    ).toBe('https://grid.example.org');
  });

  it('checks readiness of every long-running process on the port it serves it on', () => {
    for (const name of [...APPS, 'sandbox']) {
      const service = services[name] as Service;
      const port = READY_PORT[name] as string;
      expect(service.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${port}/readyz`);
      if (name !== 'api') expect(service.environment?.HEALTH_PORT).toBe(port);
      else expect(service.environment?.PORT).toBe(port);
    }
    expect(services.sandbox?.profiles).toEqual(['sandbox']);
  });
});

/** deploy/Caddyfile without comments, one trimmed line each. */
const caddyLines = read('deploy/Caddyfile')
  .split('\n')
  .map((line) => line.replace(/#.*$/, '').trim())
  .filter(Boolean);
const caddyValue = (directive: string): string | undefined =>
  caddyLines.find((line) => line.startsWith(`${directive} `))?.slice(directive.length + 1);
const durationMs = (text: string | undefined): number => {
  const match = /^(\d+)(ms|s|m)$/.exec(text ?? '');
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * { ms: 1, s: 1000, m: 60_000 }[match[2] as 'ms' | 's' | 'm'];
};

describe('the TLS front (deploy/Caddyfile)', () => {
  const front = services['tls-front'] as Service;

  it('is the only service the internet reaches: HTTPS with automatic certificates for PUBLIC_HOST', () => {
    const published = Object.entries(services).filter(([, service]) => (service.ports ?? []).length > 0);
    expect(published.map(([name]) => name)).toEqual(['tls-front']);
    expect(front.ports).toEqual(expect.arrayContaining(['80:80', '443:443']));
    expect(front.image).toMatch(/^caddy:2/);
    expect(front.volumes).toEqual(
      expect.arrayContaining(['./deploy/Caddyfile:/etc/caddy/Caddyfile:ro', 'caddy_data:/data']),
    );
    expect(compose.volumes).toHaveProperty('caddy_data');
    // Automatic HTTPS: the site is the bare host name, never http://, no internal or disabled TLS.
    expect(caddyLines).toContain('{$PUBLIC_HOST} {');
    expect(caddyLines.filter((line) => /^(auto_https|tls)\b|^http:\/\//.test(line))).toEqual([]);
    expect(containerEnv(front, undefined).PUBLIC_HOST).toBe('grid.example.org');
    expect(() => substitute(String(front.environment?.PUBLIC_HOST), {})).toThrow(/PUBLIC_HOST/);
    // The apps send Telegram the front's https address.
    for (const app of APPS) {
      const env = loadEnv(containerEnv(services[app] as Service, undefined), {
        require: requiredSecrets(app),
      });
      expect(env.PUBLIC_URL, app).toBe('https://grid.example.org');
    }
  });

  it('is exactly the number of hops the API trusts, and sets X-Forwarded-For to the client itself', () => {
    // Follow the requests from the published service to the API, counting the proxies on the way.
    const upstreamOf: Record<string, () => string[] | undefined> = {
      'tls-front': () => caddyValue('dynamic a')?.split(' '),
    };
    let hops = 0;
    let at = 'tls-front';
    while (at !== 'api' && hops < 5) {
      const upstream = upstreamOf[at]?.();
      expect(upstream, `where ${at} sends requests`).toBeDefined();
      if (at === 'tls-front') expect(upstream?.[1]).toBe(services.api?.environment?.PORT);
      hops += 1;
      at = upstream?.[0] as string;
    }
    expect(at).toBe('api');
    expect(services.api?.environment?.TRUST_PROXY_HOPS).toBe(String(hops));
    // Nobody reaches the API around the front (where X-Forwarded-For would be the client's to write).
    expect(services.api?.ports).toBeUndefined();
    // Caddy trusts no proxy in front of it: the header is the connecting client's address.
    expect(caddyLines).toContain('header_up X-Forwarded-For {remote_host}');
    expect(caddyLines.filter((line) => line.startsWith('trusted_proxies'))).toEqual([]);
  });

  it('answers /metrics and /docs itself with 404: never passed on to the API', () => {
    const matchers = new Map(
      caddyLines
        .map((line) => /^@(\w+) path (.+)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1] as string, (m[2] as string).split(/\s+/)]),
    );
    const refused = caddyLines
      .map((line) => /^respond @(\w+) (\d{3})$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) >= 400)
      .flatMap((m) => matchers.get(m[1] as string) ?? []);
    expect(refused).toEqual(expect.arrayContaining(['/metrics', '/metrics/*', '/docs', '/docs/*', '*.map']));
  });

  it('cuts slow clients no later than the API would, and drops idle connections before the API does', () => {
    const api = loadEnv(containerEnv(services.api as Service, undefined), {
      require: requiredSecrets('api'),
    });
    expect(durationMs(caddyValue('read_header'))).toBeLessThanOrEqual(api.HTTP_HEADERS_TIMEOUT_MS);
    expect(durationMs(caddyValue('read_body'))).toBeLessThanOrEqual(api.HTTP_REQUEST_TIMEOUT_MS);
    expect(durationMs(caddyValue('keepalive'))).toBeLessThan(api.HTTP_KEEP_ALIVE_TIMEOUT_MS);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  it('builds on a maintained Node LTS in stages, with the build steps CI runs', () => {
    const images = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1] as string);
    expect(images.length).toBeGreaterThanOrEqual(2);
    for (const image of images) expect(image).toMatch(/^node:(22|24)-/);
    const steps = [...dockerfile.matchAll(/^RUN (.+)$/gm)].map((m) => m[1] as string);
    expect(steps).toContain('npm ci --no-audit --no-fund');
    expect(read('.ci/run')).toContain('npm ci --no-audit --no-fund');
    const build = steps.find((step) => step.startsWith('npx turbo run build'));
    expect(build).toBe('npx turbo run build --output-logs=errors-only');
    expect(read('scripts/test.mjs')).toContain("'turbo', 'run', 'build', '--output-logs=errors-only'");
    expect(dockerfile).toMatch(/^USER node$/m);
  });
});
