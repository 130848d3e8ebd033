export default {
  id: 'wrong-api',
  version: '1.0.0',
  apiVersion: 2,
  template: 'application',
  configSchema: {},
  extract() {},
};
