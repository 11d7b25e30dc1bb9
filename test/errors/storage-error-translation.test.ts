import { describe, expect, test } from 'vitest';
// Storage failures become Status errors by their code, never by their wording
// (registry/errors.ts): one row per StorageErrorCode, so a new code without a
// translation shows up here.
import { StatusError } from '../../src/errors/status-error.js';
import { StorageError, type StorageErrorCode } from '../../src/errors/storage-error.js';
import { translateStorageError } from '../../src/registry/errors.js';

const resource = { group: 'apps', resource: 'deployments' };

const cases: { name: string; err: StorageError; want: { code: number; reason: string; message: string } }[] = [
  { name: 'NotFound', err: new StorageError('NotFound', 'key /apps/deployments/ns/web not found'), want: { code: 404, reason: 'NotFound', message: 'deployments.apps "web" not found' } },
  { name: 'Exists', err: new StorageError('Exists', 'key exists'), want: { code: 409, reason: 'AlreadyExists', message: 'deployments.apps "web" already exists' } },
  {
    name: 'Conflict (a lost race) is the optimistic-lock text',
    err: new StorageError('Conflict', 'key /apps/deployments/ns/web was modified'),
    want: { code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again' },
  },
  {
    name: 'Conflict keeps no storage wording, even one that reads like a precondition',
    err: new StorageError('Conflict', 'Precondition failed: made up'),
    want: { code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again' },
  },
  {
    name: 'PreconditionFailed quotes storage as kube does',
    err: new StorageError('PreconditionFailed', 'Precondition failed: UID in precondition: a, UID in object meta: b', { key: '/apps/deployments/ns/web' }),
    want: {
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on deployments.apps "web": StorageError: invalid object, Code: 4, Key: /registry/apps/deployments/ns/web, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: a, UID in object meta: b',
    },
  },
  { name: 'Compacted', err: new StorageError('Compacted', 'compacted', { revision: 40 }), want: { code: 410, reason: 'Expired', message: 'too old resource version: 12 (40)' } },
  { name: 'FutureRevision', err: new StorageError('FutureRevision', 'future', { revision: 5 }), want: { code: 504, reason: 'Timeout', message: 'Timeout: Too large resource version: 12, current: 5' } },
  {
    name: 'Compacted quotes the version storage tried (a continue token\'s) over the request\'s',
    err: new StorageError('Compacted', 'compacted', { revision: 272, requested: 1 }),
    want: { code: 410, reason: 'Expired', message: 'too old resource version: 1 (272)' },
  },
  {
    name: 'FutureRevision quotes the version storage tried over the request\'s',
    err: new StorageError('FutureRevision', 'future', { revision: 5448, requested: 99999 }),
    want: { code: 504, reason: 'Timeout', message: 'Timeout: Too large resource version: 99999, current: 5448' },
  },
  { name: 'Unavailable', err: new StorageError('Unavailable', 'etcd is down'), want: { code: 503, reason: 'ServiceUnavailable', message: 'etcd is down' } },
  { name: 'InvalidObject', err: new StorageError('InvalidObject', 'cannot decode'), want: { code: 500, reason: 'InternalError', message: 'Internal error occurred: cannot decode' } },
  { name: 'BadRequest', err: new StorageError('BadRequest', 'invalid resource version: "x"'), want: { code: 400, reason: 'BadRequest', message: 'invalid resource version: "x"' } },
];

describe('translateStorageError', () => {
  for (const c of cases) {
    test(c.name, () => {
      const out = translateStorageError(c.err, { operation: 'update', resource, name: 'web', resourceVersion: '12' });
      expect(out).toBeInstanceOf(StatusError);
      const status = out as StatusError;
      expect({ code: status.code, reason: status.reason, message: status.message }).toEqual(c.want);
    });
  }

  test('every code has a row', () => {
    const codes: Record<StorageErrorCode, true> = {
      NotFound: true,
      Exists: true,
      Conflict: true,
      PreconditionFailed: true,
      Compacted: true,
      FutureRevision: true,
      Unavailable: true,
      InvalidObject: true,
      BadRequest: true,
    };
    expect(new Set(cases.map((c) => c.err.code))).toEqual(new Set(Object.keys(codes)));
  });

  test('anything else passes through untouched', () => {
    const err = new Error('boom');
    expect(translateStorageError(err, { operation: 'get', resource, name: 'web' })).toBe(err);
  });
});
