import { z } from 'zod';
import { defineEndpoint } from '../core';

export const ZDemoLaunchData = z.object({
  initData: z.string(),
  url: z.string().describe('mini app URL with the launch parameters in its hash'),
});
export type DemoLaunchData = z.output<typeof ZDemoLaunchData>;

/** Demo mode only: signed launch data for the demo user and a URL opening the app signed in. */
export const getLaunchData = defineEndpoint({
  id: 'demo.getLaunchData',
  method: 'GET',
  path: '/demo/launch-data',
  summary: 'Demo mode only: signed launch data for the demo user',
  tags: ['demo'],
  auth: false,
  response: ZDemoLaunchData,
  errors: {},
});
