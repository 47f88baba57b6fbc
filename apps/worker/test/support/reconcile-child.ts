// A worker process for the crash test: reconciles one coin bot in a loop until it is killed.
// argv: databaseUrl sandboxUrl secretKeyHex coinBotId
import { createDb } from '@gridbot/db';
import {
  createExchangeClients,
  createSecretBox,
  installationSalt,
  reconcileCoinBot,
} from '@gridbot/services';

const [databaseUrl, sandboxUrl, keyHex, coinBotId] = process.argv.slice(2);
const db = await createDb({ databaseUrl: databaseUrl! });
const secretBox = createSecretBox([Buffer.from(keyHex!, 'hex')]);
const clients = createExchangeClients({ prisma: db.prisma, secretBox, sandboxUrl: sandboxUrl! });
const salt = await installationSalt(db.prisma);
process.stdout.write('ready\n');
for (;;) {
  const result = await reconcileCoinBot(
    { prisma: db.prisma, clientFor: clients.forAccount, owner: `child-${process.pid}`, salt, leaseMs: 2000 },
    Number(coinBotId),
  );
  process.stdout.write(`pass ${result.status}\n`);
}
