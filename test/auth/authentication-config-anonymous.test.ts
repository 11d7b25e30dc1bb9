// The `anonymous` section of --authentication-config (auth/authn/request.ts):
// requests without credentials run as system:anonymous everywhere, only on the
// listed paths, or nowhere; credentials that are refused stay 401 either way.
import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { AuthenticationError, type Authenticator } from '../../src/auth/authn/authenticator.js';
import type { AnonymousAuthConfig } from '../../src/auth/authn/authentication-config.js';
import { createRequestAuthenticator } from '../../src/auth/authn/request.js';
import { isStatusError } from '../../src/errors/status-error.js';

const ANONYMOUS = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** No credentials: nobody answers; "bad" credentials: refused. */
const authenticator: Authenticator = async (req) => {
  if (req.headers['authorization'] === 'Bearer bad') throw new AuthenticationError('invalid bearer token');
  return undefined;
};

async function outcome(anonymous: AnonymousAuthConfig | undefined, url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const authenticate = createRequestAuthenticator({ authenticator, ...(anonymous === undefined ? {} : { anonymous }) });
  try {
    return await authenticate({ headers, raw: { url } as IncomingMessage });
  } catch (err) {
    if (isStatusError(err)) return err.code;
    throw err;
  }
}

describe('requests without credentials', () => {
  const onlyHealth: AnonymousAuthConfig = { enabled: true, conditions: [{ path: '/livez' }, { path: '/readyz' }] };
  const cases: { name: string; anonymous: AnonymousAuthConfig | undefined; url: string; headers?: Record<string, string>; want: unknown }[] = [
    { name: 'enabled without conditions: every path', anonymous: { enabled: true, conditions: [] }, url: '/api/v1/pods', want: ANONYMOUS },
    { name: 'disabled: 401', anonymous: { enabled: false, conditions: [] }, url: '/livez', want: 401 },
    { name: 'a listed path', anonymous: onlyHealth, url: '/livez', want: ANONYMOUS },
    { name: 'a listed path with a query', anonymous: onlyHealth, url: '/readyz?verbose', want: ANONYMOUS },
    { name: 'a listed path percent-encoded', anonymous: onlyHealth, url: '/%6civez', want: ANONYMOUS },
    { name: 'a path not listed: 401', anonymous: onlyHealth, url: '/api', want: 401 },
    { name: 'a listed path with a trailing slash is another path', anonymous: onlyHealth, url: '/livez/', want: 401 },
    { name: 'a prefix of a listed path is another path', anonymous: onlyHealth, url: '/live', want: 401 },
    { name: 'a malformed escape is compared as sent', anonymous: onlyHealth, url: '/livez%', want: 401 },
    { name: 'refused credentials on a listed path: 401, not anonymous', anonymous: onlyHealth, url: '/livez', headers: { authorization: 'Bearer bad' }, want: 401 },
    { name: 'without a configuration the caller decides', anonymous: undefined, url: '/api', want: undefined },
  ];
  for (const c of cases) test(c.name, async () => expect(await outcome(c.anonymous, c.url, c.headers)).toEqual(c.want));
});
