import { z } from 'zod';
import { defineEndpoint, ZIdInt, ZIsoDateTime, ZUid } from '../core';
import { documented } from '../errors';

/**
 * A node of the partner tree. `children` is empty until the client loads that node
 * (`?required_id=<user_id>`); `hasChildren` tells whether to show the expander.
 */
export const ZStructureNode = z.object({
  user_id: ZIdInt.describe('UID'),
  username: z.string().nullable(),
  firstName: z.string(),
  line: z.number().int().describe('generation below the viewer, 1 = personally invited'),
  licenseLevel: z.string(),
  licenseActive: z.boolean(),
  registeredAt: ZIsoDateTime,
  directPartners: z.number().int(),
  teamSize: z.number().int(),
  hasChildren: z.boolean(),
  get children(): z.ZodArray<typeof ZStructureNode> {
    return z.array(ZStructureNode);
  },
});
export type StructureNode = z.output<typeof ZStructureNode>;

/**
 * Structure tree, loaded lazily: the children of `required_id` (absent = the caller, i.e. line 1),
 * sorted by registration. Any node of the caller's downline may be opened, whatever its depth.
 */
export const getStructure = defineEndpoint({
  id: 'partners.getStructure',
  method: 'POST',
  path: '/partners/my_partners/structure',
  summary: 'Children of one node of the partner tree',
  tags: ['partners'],
  auth: true,
  query: z.object({ required_id: ZUid.optional().describe('node to expand; absent = the caller') }),
  body: z
    .object({ user_id: ZUid.optional().describe("the caller's UID; any other UID is refused with 403") })
    .default({}),
  response: z.array(ZStructureNode),
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    403: documented('FORBIDDEN'),
    404: documented('PARTNER_NOT_FOUND'),
  },
});
