// pods/<name>/log through the real server against a fake kubelet (test/support/
// fake-kubelet.ts) on 127.0.0.1: `kubectl logs` with kubectl 1.27, 1.33 and the
// default one, its flags as the kubelet's query, a followed log streamed as it
// comes and closed upstream when the client leaves, kapi's client certificate
// presented and the kubelet's verified (--kubelet-* flags), and kube's answers
// for everything that is not a log: a pod on no node (204), a node that does not
// exist or has no address, a kubelet that refuses or redirects, bad options,
// hostile and anonymous requests.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeKubelet, type FakeKubelet } from '../support/fake-kubelet.js';
import { adminCredentials, call, type Answer, type Credentials } from './support/http.js';
import { kubectl, kubectlAsync, kubectlBinaries, ok } from './support/kubectl.js';
import { eventually, startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let kubelet: FakeKubelet;
let server: RunningKapi;
let creds: Required<Credentials>;
let dir: string;
const NS = 'logs';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const REFERENCE = join(import.meta.dirname, '../../../shared/reference/kubernetes-1.36-openapi-v2.json');

beforeAll(async () => {
  kubelet = await startFakeKubelet();
  dir = mkdtempSync(join(tmpdir(), 'kapi-pod-log-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  server = await startKapi({
    args: [
      `--kubelet-client-certificate=${file('client.crt', kubelet.client.certPem)}`,
      `--kubelet-client-key=${file('client.key', kubelet.client.keyPem)}`,
      `--kubelet-certificate-authority=${file('ca.crt', kubelet.servingCaPem)}`,
    ],
  });
  creds = adminCredentials(server.kubeconfig);
  expect((await send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status).toBe(201);
  await makeNode('n1', { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: kubelet.port } } });
  await makePod('web', 'n1', [{ name: 'c', image: 'nginx' }]);
  kubelet.setLog(`${NS}/web/c`, ['one', 'two', 'three']);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await kubelet?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function send(method: string, path: string, body?: unknown, accept = 'application/json'): Promise<Answer> {
  return call(server, creds, {
    method,
    path,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: { 'content-type': 'application/json', accept },
  });
}

async function makeNode(name: string, status: object): Promise<void> {
  expect((await send('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } })).status).toBe(201);
  const node = (await send('GET', `/api/v1/nodes/${name}`)).json();
  const a = await send('PUT', `/api/v1/nodes/${name}/status`, { ...node, status });
  expect(a.status, a.body.toString()).toBe(200);
}

async function makePod(name: string, nodeName: string | undefined, containers: object[], initContainers?: object[]): Promise<void> {
  const spec = { containers, ...(nodeName === undefined ? {} : { nodeName }), ...(initContainers === undefined ? {} : { initContainers }) };
  const a = await send('POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
  expect(a.status, a.body.toString()).toBe(201);
}

const log = (name: string, query = '') => send('GET', `${PODS}/${name}/log${query}`, undefined, 'application/json, */*');

describe('kubectl logs', () => {
  for (const binary of binaries) {
    // kubectl runs beside this process (the fake kubelet answers from it meanwhile).
    test(`${binary.name}: the log, the tail, and the flags the kubelet is asked with`, async () => {
      const logs = async (...args: string[]) => {
        const r = await kubectlAsync(binary, server.kubeconfig, ['-n', NS, 'logs', 'web', ...args]);
        expect(r.code, r.stderr).toBe(0);
        return r.stdout;
      };
      expect(await logs()).toBe('one\ntwo\nthree\n');
      expect(await logs('--tail=1')).toBe('three\n');
      const before = kubelet.requests.length;
      await logs('-c', 'c', '--timestamps', '--since=1h', '--limit-bytes=100');
      const asked = kubelet.requests[before]!;
      expect(asked).toEqual({ path: `/containerLogs/${NS}/web/c`, query: { limitBytes: '100', sinceSeconds: '3600', timestamps: 'true' }, clientCommonName: 'kube-apiserver-kubelet-client' });
    });
  }

  test('a pod on no node has no log: 204, and kubectl prints nothing', async () => {
    await makePod('pending', undefined, [{ name: 'c', image: 'nginx' }]);
    const a = await log('pending');
    expect(a.status).toBe(204);
    expect(a.body.length).toBe(0);
    expect(ok(kubectl(binaries[0]!, server.kubeconfig), ['-n', NS, 'logs', 'pending'])).toBe('');
  });
});

describe('GET pods/log', () => {
  test('200 text/plain, the kubelet\'s bytes as they are', async () => {
    const a = await log('web', '?container=c');
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('text/plain');
    expect(a.body.toString()).toBe('one\ntwo\nthree\n');
  });

  test('follow streams lines as the kubelet writes them, and closes the kubelet stream when the client goes away', async () => {
    const url = new URL(`https://127.0.0.1:${server.port}${PODS}/web/log?follow=true`);
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpsRequest(url, { ca: creds.ca, cert: creds.cert, key: creds.key, headers: { accept: '*/*' } }, resolve);
      req.once('error', reject);
      req.end();
    });
    expect(res.statusCode).toBe(200);
    let text = '';
    res.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await eventually('the old lines', () => text === 'one\ntwo\nthree\n');
    await eventually('the kubelet stream is open', () => kubelet.following(`${NS}/web/c`) === 1);
    expect(kubelet.push(`${NS}/web/c`, 'four')).toBe(1);
    await eventually('the new line', () => text.endsWith('four\n'));
    res.destroy();
    await eventually('the kubelet stream is closed', () => kubelet.following(`${NS}/web/c`) === 0);
  });

  test('options: Go\'s parse errors (400), kube\'s validation (422, PodLogOptions), before the pod is read', async () => {
    const bad = await log('web', '?tailLines=x');
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'strconv.ParseInt: parsing "x": invalid syntax' });
    const time = await log('web', '?sinceTime=yesterday');
    expect(time.json().message).toBe('parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    const invalid = await log('missing', '?tailLines=-1&limitBytes=0&stream=All');
    expect(invalid.status).toBe(422);
    expect(invalid.json()).toMatchObject({
      reason: 'Invalid',
      message: 'PodLogOptions "missing" is invalid: [tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: 0: must be greater than 0, stream: Forbidden: may not be specified]',
      details: { name: 'missing', kind: 'PodLogOptions' },
    });
    const both = await log('web', '?sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z');
    expect(both.json().details.causes).toEqual([{ reason: 'FieldValueForbidden', field: '[]', message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified' }]);
    expect((await log('missing')).status).toBe(404);
  });

  test('containers: one to choose, or a name the pod has', async () => {
    await makePod('two', 'n1', [{ name: 'a', image: 'x' }, { name: 'b', image: 'x' }], [{ name: 'init', image: 'x' }]);
    const choose = await log('two');
    expect(choose.status).toBe(400);
    expect(choose.json().message).toBe('a container name must be specified for pod two, choose one of: [init a b]');
    const wrong = await log('two', '?container=zzz');
    expect(wrong.json().message).toBe('container zzz is not valid for pod two');
    kubelet.setLog(`${NS}/two/init`, ['from init']);
    expect((await log('two', '?container=init')).body.toString()).toBe('from init\n');
  });

  test('nodes: one that does not exist (404), one without an address of a preferred type (500, no reason)', async () => {
    await makePod('ghost', 'ghost-node', [{ name: 'c', image: 'x' }]);
    const ghost = await log('ghost');
    expect(ghost.status).toBe(404);
    expect(ghost.json()).toMatchObject({ reason: 'NotFound', message: 'nodes "ghost-node" not found', details: { name: 'ghost-node', kind: 'nodes' } });
    await makeNode('no-address', { addresses: [{ type: 'Other', address: 'x' }] });
    await makePod('lost', 'no-address', [{ name: 'c', image: 'x' }]);
    const lost = await log('lost');
    expect(lost.status).toBe(500);
    expect(lost.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'no preferred addresses found; known addresses: [{Other x}]', code: 500 });
  });

  test('a kubelet that refuses or redirects: kube\'s mapping of its answer', async () => {
    await makePod('refused', 'n1', ['refuse-400', 'refuse-401', 'refuse-404', 'refuse-500', 'refuse-503', 'redirect'].map((name) => ({ name, image: 'x' })));
    const answer = async (container: string) => (await log('refused', `?container=${container}`)).json();
    expect(await answer('refuse-400')).toMatchObject({ code: 400, reason: 'BadRequest', message: 'refused 400' });
    expect(await answer('refuse-401')).toMatchObject({ code: 401, reason: 'Unauthorized', message: 'the server has asked for the client to provide credentials ( pods/log refused)', details: { name: 'refused', kind: 'pods/log' } });
    expect(await answer('refuse-404')).toMatchObject({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource ( pods/log refused)' });
    expect(await answer('refuse-500')).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: refused 500' });
    expect(await answer('refuse-503')).toMatchObject({ code: 503, reason: 'ServiceUnavailable', message: 'the server is currently unable to handle the request ( pods/log refused)' });
    const redirect = await answer('redirect');
    expect(redirect).toMatchObject({ code: 500, message: `Get "https://127.0.0.1:${kubelet.port}/containerLogs/${NS}/refused/redirect": redirects forbidden` });
    expect(redirect.reason).toBeUndefined();
  });

  test('a kubelet nobody listens for: Go\'s dial error, 500', async () => {
    await makeNode('closed', { addresses: [{ type: 'Hostname', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: 1 } } });
    await makePod('closed', 'closed', [{ name: 'c', image: 'x' }]);
    const a = await log('closed', '?follow=true');
    expect(a.status).toBe(500);
    expect(a.json().message).toBe(`Get "https://127.0.0.1:1/containerLogs/${NS}/closed/c?follow=true": dial tcp 127.0.0.1:1: connect: connection refused`);
  });

  test('hostile and unauthorised: prototype-named and oversized parameters, a text-only Accept, no credentials', async () => {
    const proto = await log('web', '?__proto__=1&constructor=x&toString=y');
    expect(proto.status).toBe(200);
    expect(proto.body.toString()).toBe('one\ntwo\nthree\n');
    const long = await log('web', `?container=${'x'.repeat(100_000)}`);
    expect([400, 414, 431]).toContain(long.status);
    expect((await log('web', '?container=__proto__')).json().message).toBe('container __proto__ is not valid for pod web');
    const textOnly = await send('GET', `${PODS}/web/log`, undefined, 'text/plain');
    expect(textOnly.status).toBe(406);
    const anonymous = await call(server, { ca: creds.ca }, { method: 'GET', path: `${PODS}/web/log` });
    expect([401, 403]).toContain(anonymous.status);
    expect(anonymous.body.toString()).not.toContain('one');
  });

  // Needs the reference set beside the checkout (../shared/reference), as CI has it.
  test.skipIf(!existsSync(REFERENCE))('OpenAPI v2 publishes pods/log as kube 1.36 does: text first, a string, the PodLogOptions parameters', async () => {
    const LOG = '/api/v1/namespaces/{namespace}/pods/{name}/log';
    const reference = JSON.parse(readFileSync(REFERENCE, 'utf8'));
    const names = (item: { parameters: Array<{ name?: string; $ref?: string }> }) =>
      item.parameters.map((p) => p.name ?? reference.parameters[p.$ref!.replace('#/parameters/', '')].name);
    const ours = (await send('GET', '/openapi/v2')).json().paths[LOG];
    expect(names(ours)).toEqual(names(reference.paths[LOG]));
    expect(ours.get.responses['200'].schema).toEqual(reference.paths[LOG].get.responses['200'].schema);
    // kube also lists application/cbor, which kapi does not serve.
    expect(ours.get.produces).toEqual(reference.paths[LOG].get.produces.filter((m: string) => m !== 'application/cbor'));
    expect(ours.get.operationId).toBe(reference.paths[LOG].get.operationId);
  });

  test('discovery lists pods/log as Pod, get only', async () => {
    const row = (await send('GET', '/api/v1')).json().resources.find((r: { name: string }) => r.name === 'pods/log');
    expect(row).toMatchObject({ name: 'pods/log', namespaced: true, kind: 'Pod', verbs: ['get'] });
  });
});
