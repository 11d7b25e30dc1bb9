// --authentication-config while the server runs (auth/authn/
// authentication-config-file.ts): a changed, valid file replaces the JWT
// authenticators; an invalid one, one whose issuer does not answer, or one that
// changes `anonymous` leaves the last good configuration serving.
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAuthenticationConfigAuthenticator, loadAuthenticationConfig, watchAuthenticationConfig, type AuthenticationConfigAuthenticator } from '../../src/auth/authn/authentication-config-file.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer.js';

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await startTestIssuer();
  await issuer.addKey('RS256');
});
afterAll(async () => issuer.close());

const now = () => Math.floor(Date.now() / 1000);
const dir = mkdtempSync(join(tmpdir(), 'kapi-authn-reload-'));
const file = join(dir, 'auth.yaml');

function configText(opts: { prefix: string; url?: string; anonymous?: boolean }): string {
  return JSON.stringify({
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'AuthenticationConfiguration',
    jwt: [{ issuer: { url: opts.url ?? issuer.url, certificateAuthority: issuer.caPem, audiences: ['kapi'] }, claimMappings: { username: { claim: 'sub', prefix: opts.prefix } } }],
    ...(opts.anonymous === undefined ? {} : { anonymous: { enabled: opts.anonymous } }),
  });
}

/** Replaces the file at once (as editors and config management do), so no half-written file is read. */
function writeConfig(text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

async function usernameOf(auth: AuthenticationConfigAuthenticator): Promise<string | undefined> {
  const token = await issuer.sign({ iss: issuer.url, aud: 'kapi', sub: 'u-1', iat: now(), exp: now() + 600 });
  return (await auth.authenticate({ headers: { authorization: `Bearer ${token}` } }))?.user.username;
}

/** Waits on a condition with a bound (no sleeps as synchronisation). */
async function until(what: string, check: () => boolean, boundMs = 10_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('reloading the file', () => {
  test('valid change applies; invalid, unreachable and anonymous changes keep the last good configuration', async () => {
    writeConfig(configText({ prefix: 'one:', anonymous: true }));
    const loaded = await loadAuthenticationConfig({ file, anonymousFlagSet: false, disallowedIssuers: [] });
    const auth = createAuthenticationConfigAuthenticator(loaded, { refreshIntervalMs: 0 });
    const errors: string[] = [];
    let reloads = 0;
    const stop = watchAuthenticationConfig({ file, authenticator: auth, initialData: loaded.data, disallowedIssuers: [], intervalMs: 20, onReloaded: () => reloads++, onError: (m) => errors.push(m) });
    try {
      expect(await usernameOf(auth)).toBe('one:u-1');

      writeConfig(configText({ prefix: 'two:', anonymous: true }));
      await until('the reload', () => reloads === 1);
      expect(await usernameOf(auth)).toBe('two:u-1');

      writeConfig('kind: [\n');
      await until('the decode error', () => errors.length === 1);
      expect(errors[0]).toMatch(/^failed to load authentication config: error converting YAML to JSON: yaml: /);
      expect(await usernameOf(auth)).toBe('two:u-1');

      writeConfig(configText({ prefix: 'three:', anonymous: false }));
      await until('the anonymous refusal', () => errors.length === 2);
      expect(errors[1]).toBe('failed to load authentication config: invalid authentication configuration: anonymous: Forbidden: changed from initial configuration file');
      expect(await usernameOf(auth)).toBe('two:u-1');

      // An issuer that does not answer: the new authenticators never become healthy, the old ones serve on.
      writeConfig(configText({ prefix: 'four:', url: 'https://127.0.0.1:1', anonymous: true }));
      await until('the unreachable issuer', () => errors.some((e) => e.startsWith('failed to update authentication config: ')));
      expect(await usernameOf(auth)).toBe('two:u-1');

      writeConfig(configText({ prefix: 'five:', anonymous: true }));
      await until('the second reload', () => reloads === 2);
      expect(await usernameOf(auth)).toBe('five:u-1');
    } finally {
      stop();
    }
  }, 30_000);
});
