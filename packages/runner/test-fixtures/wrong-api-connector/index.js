// Declares apiVersion 1 in package.json but exports a connector written for version 3.
import * as z from 'zod';

export default {
  id: 'wrong-api-connector',
  version: '1.0.0',
  apiVersion: 3,
  template: 'application',
  configSchema: z.object({}),
  extract() {
    return { applications: [] };
  },
};
