// Runs inside `dbus-run-session` with gnome-keyring unlocked (see keychain.test.ts): stores, reads,
// resolves and deletes an API key and a secret in a real Secret Service, and prints what it saw.
// The raw keychain functions and secret references are internal: imported by path.
import { deleteKeychain, writeKeychain } from '../../dist/credentials/keychain.js';
import { resolveSecretReference } from '../../dist/credentials/secrets.js';
import { deleteApiKey, getApiKey, resolveTarget, saveApiKey } from '../../dist/index.js';

const url = 'https://tenant.example.test/';
const key = process.env.TEST_API_KEY;
const out = {};
out.before = (await getApiKey(url)) ?? null;
await saveApiKey(url, key);
out.readBack = (await getApiKey('https://tenant.example.test')) === key;
const target = await resolveTarget({ env: {}, target: { url } });
out.resolved = {
  apiKeySource: target.apiKeySource,
  matches: target.apiKey === key,
  json: JSON.stringify(target),
};
await writeKeychain('oaakit-fixture', 'hr/token', 'fixture-secret-value');
out.reference = (await resolveSecretReference('keychain:oaakit-fixture/hr/token')) === 'fixture-secret-value';
out.deleted = await deleteApiKey(url);
out.deletedAgain = await deleteApiKey(url);
out.after = (await getApiKey(url)) ?? null;
try {
  await resolveTarget({ env: {}, target: { url } });
  out.missing = null;
} catch (error) {
  out.missing = { json: error.toJSON(), message: error.message };
}
await deleteKeychain('oaakit-fixture', 'hr/token');
process.stdout.write(JSON.stringify(out));
