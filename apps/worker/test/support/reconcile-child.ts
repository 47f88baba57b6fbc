// A worker process for the crash test: reconciles one coin bot in a loop until it is killed.
// argv: databaseUrl sandboxUrl secretKeyHex coinBotId
import { createDb } from '@gridbot/db';
import { createExchangeClients, createSecretBox, reconcileCoinBot } from '@gridbot/services';
import { createTestContext } from '@gridbot/services/testing';

const [databaseUrl, sandboxUrl, keyHex, coinBotId] = process.argv.slice(2);
const db = await createDb({ databaseUrl: databaseUrl! });
const secretBox = createSecretBox([Buffer.from(keyHex!, 'hex')]);
const clients = createExchangeClients({ prisma: db.prisma, secretBox, sandboxUrl: sandboxUrl! });
const ctx = createTestContext({
  prisma: db.prisma,
  exchanges: clients,
  secretBox,
  instanceId: `child-${process.pid}`,
});
await ctx.installationSalt();
process.stdout.write('ready\n');
for (;;) {
  const result = await reconcileCoinBot(ctx, { coinBotId: Number(coinBotId), leaseMs: 2000 });
  process.stdout.write(`pass ${result.status}\n`);
}
