// Every StatusError constructor, rendered: the exact Status bodies kube-apiserver
// writes (apimachinery pkg/api/errors), which clients compare.
import { describe, expect, test } from 'vitest';
import * as errors from '../../src/errors/status-error.js';
import { invalidValue, path, required } from '../../src/schema/field-errors.js';

const pods = { group: '', resource: 'pods' };
const deployments = { group: 'apps', resource: 'deployments' };

const cases: { name: string; err: errors.StatusError; want: object }[] = [
  {
    name: 'notFound core',
    err: errors.notFound(pods, 'web'),
    want: { message: 'pods "web" not found', reason: 'NotFound', details: { name: 'web', kind: 'pods' }, code: 404 },
  },
  {
    name: 'notFound in a group',
    err: errors.notFound(deployments, 'x'),
    want: { message: 'deployments.apps "x" not found', reason: 'NotFound', details: { name: 'x', group: 'apps', kind: 'deployments' }, code: 404 },
  },
  {
    name: 'alreadyExists',
    err: errors.alreadyExists({ group: '', resource: 'services' }, 'x'),
    want: { message: 'services "x" already exists', reason: 'AlreadyExists', details: { name: 'x', kind: 'services' }, code: 409 },
  },
  {
    name: 'generateNameConflict',
    err: errors.generateNameConflict(pods, 'web-abcde', 1),
    want: {
      message: 'pods "web-abcde" already exists, the server was not able to generate a unique name for the object',
      reason: 'AlreadyExists',
      details: { name: 'web-abcde', kind: 'pods', retryAfterSeconds: 1 },
      code: 409,
    },
  },
  {
    name: 'conflict',
    err: errors.conflict(pods, 'web'),
    want: {
      message: 'Operation cannot be fulfilled on pods "web": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'web', kind: 'pods' },
      code: 409,
    },
  },
  {
    name: 'invalid with two causes',
    err: errors.invalid({ group: '', kind: 'Pod' }, 'web', [required(path('spec', 'containers')), invalidValue(path('metadata', 'name'), 'Web', 'bad')]),
    want: {
      message: 'Pod "web" is invalid: [spec.containers: Required value, metadata.name: Invalid value: "Web": bad]',
      reason: 'Invalid',
      details: {
        name: 'web',
        kind: 'Pod',
        causes: [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "Web": bad', field: 'metadata.name' },
        ],
      },
      code: 422,
    },
  },
  {
    name: 'rejected',
    err: errors.rejected('test operation failed'),
    want: {
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: { causes: [{ reason: 'UnexpectedServerResponse', message: 'test operation failed' }] },
      code: 422,
    },
  },
  { name: 'badRequest', err: errors.badRequest('bad'), want: { message: 'bad', reason: 'BadRequest', code: 400 } },
  { name: 'unauthorized', err: errors.unauthorized(), want: { message: 'Unauthorized', reason: 'Unauthorized', code: 401 } },
  {
    name: 'forbidden with a name',
    err: errors.forbidden(pods, 'web', 'User "bob" cannot get resource "pods" in API group "" in the namespace "default"'),
    want: {
      message: 'pods "web" is forbidden: User "bob" cannot get resource "pods" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { name: 'web', kind: 'pods' },
      code: 403,
    },
  },
  {
    name: 'forbiddenPath',
    err: errors.forbiddenPath('User "bob" cannot get path "/metrics"'),
    want: { message: 'forbidden: User "bob" cannot get path "/metrics"', reason: 'Forbidden', details: {}, code: 403 },
  },
  {
    name: 'methodNotSupported',
    err: errors.methodNotSupported(pods, 'patch'),
    want: { message: 'patch is not supported on resources of kind "pods"', reason: 'MethodNotAllowed', details: { kind: 'pods' }, code: 405 },
  },
  {
    name: 'notAcceptable',
    err: errors.notAcceptable(['application/json', 'application/yaml']),
    want: { message: 'only the following media types are accepted: application/json, application/yaml', reason: 'NotAcceptable', code: 406 },
  },
  {
    name: 'unsupportedMediaType',
    err: errors.unsupportedMediaType('text/plain', ['application/json']),
    want: {
      message: 'the body of the request was in an unknown format - accepted media types include: application/json',
      reason: 'UnsupportedMediaType',
      code: 415,
    },
  },
  {
    name: 'requestEntityTooLarge',
    err: errors.requestEntityTooLarge('limit is 3145728'),
    want: { message: 'Request entity too large: limit is 3145728', reason: 'RequestEntityTooLarge', code: 413 },
  },
  { name: 'expired', err: errors.expired('too old resource version: 5 (10)'), want: { message: 'too old resource version: 5 (10)', reason: 'Expired', code: 410 } },
  {
    name: 'timeout',
    err: errors.timeout('Too large resource version: 9, current: 3', [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], 1),
    want: {
      message: 'Timeout: Too large resource version: 9, current: 3',
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      code: 504,
    },
  },
  { name: 'serviceUnavailable', err: errors.serviceUnavailable('etcd down'), want: { message: 'etcd down', reason: 'ServiceUnavailable', code: 503 } },
  {
    name: 'internal',
    err: errors.internal(new Error('boom')),
    want: { message: 'Internal error occurred: boom', reason: 'InternalError', details: { causes: [{ message: 'boom' }] }, code: 500 },
  },
];

describe('Status bodies', () => {
  for (const c of cases) {
    test(c.name, () => {
      expect(c.err.toStatus()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', ...c.want });
    });
  }

  test('keys come in kube-apiserver order', () => {
    expect(Object.keys(errors.notFound(pods, 'web').toStatus())).toEqual(['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'details', 'code']);
  });

  test('retry hints become Retry-After headers', () => {
    expect(errors.generateNameConflict(pods, 'x', 1).headers).toEqual({ 'Retry-After': '1' });
  });
});
