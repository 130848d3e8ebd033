// The throwaway Redmine now lives in the public testing entry (@oaakit/plugin-rest/testing).
export * from '../testing/redmine-server.js';
