import { runMain } from '@gridbot/runtime';
import { startStandalone } from './start-standalone';

runMain('gridbot', () => startStandalone(process.env));
