// The HTTP floor as a process of its own: Fastify with one route, `GET /bench/bare` → `{ok:true}`
// (no plugins, no database). Sends `{ port }` to the parent when listening; exits on SIGTERM.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bench/bare', async () => ({ ok: true }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
process.on('SIGTERM', () => process.exit(0));
