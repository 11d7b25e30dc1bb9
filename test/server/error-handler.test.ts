// Which failures are bugs: a StatusError or a Fastify client error is the client's
// answer; a client that went away mid-request is nobody's bug; anything else is a
// 500 InternalError logged as a bug.
import { describe, expect, test } from 'vitest';
import { notFound } from '../../src/errors/status-error.js';
import { toStatusError } from '../../src/server/error-handler.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

const cases: { name: string; err: unknown; want: { code: number; bug: boolean } }[] = [
  { name: 'a StatusError is itself', err: notFound({ group: '', resource: 'pods' }, 'p'), want: { code: 404, bug: false } },
  { name: 'an aborted request (ECONNRESET)', err: withCode('aborted', 'ECONNRESET'), want: { code: 400, bug: false } },
  { name: 'a premature close of the body stream', err: withCode('Premature close', 'ERR_STREAM_PREMATURE_CLOSE'), want: { code: 400, bug: false } },
  { name: 'a body that ended before its end', err: new Error('request body closed before its end'), want: { code: 400, bug: false } },
  { name: 'a TypeError is a bug', err: new TypeError('x.split is not a function'), want: { code: 500, bug: true } },
];

describe('toStatusError', () => {
  for (const c of cases) {
    test(c.name, () => {
      const got = toStatusError(c.err);
      expect({ code: got.status.code, bug: got.bug }).toEqual(c.want);
    });
  }
});
