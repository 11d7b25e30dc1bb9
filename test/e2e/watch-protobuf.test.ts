// A protobuf watch read the way client-go reads it, by a decoder that shares no
// code with the server: protobufjs over the project's proto/ definitions. client-go
// sends its usual Accept on a watch (`application/vnd.kubernetes.protobuf, */*` for
// a protobuf client), gets Content-Type application/vnd.kubernetes.protobuf;stream=watch,
// and reads frames with apimachinery's LengthDelimitedFramer (4-byte big-endian
// length) decoded by the RawSerializer into metav1.WatchEvent (no `k8s\0` on the
// event), whose object.raw is an ordinary `k8s\0` + runtime.Unknown body.
import { connect, type ClientHttp2Session } from 'node:http2';
import { join, resolve } from 'node:path';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials, call, type Credentials } from './support/http.js';
import { startKapi, type RunningKapi } from './support/server.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const PROTO_ROOT = resolve(import.meta.dirname, '../../proto');

function loadProtos(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith('/') ? target : join(PROTO_ROOT, target));
  root.loadSync(['k8s.io/api/core/v1/generated.proto', 'k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto'], { keepCase: true });
  return root;
}

interface DecodedEvent {
  readonly type: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly object: { metadata?: { name?: string; resourceVersion?: string }; data?: Record<string, string> };
}

/** Splits a byte stream into length-prefixed frames and decodes each as client-go does. */
function frameReader(root: protobuf.Root): { push(chunk: Buffer): DecodedEvent[] } {
  const WatchEvent = root.lookupType('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent');
  const Unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  let pending = Buffer.alloc(0);
  return {
    push(chunk) {
      pending = Buffer.concat([pending, chunk]);
      const out: DecodedEvent[] = [];
      while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
        const frame = pending.subarray(4, 4 + pending.readUInt32BE(0));
        pending = pending.subarray(4 + frame.length);
        const event = WatchEvent.toObject(WatchEvent.decode(frame)) as { type: string; object: { raw: Uint8Array } };
        const raw = Buffer.from(event.object.raw);
        expect(raw.subarray(0, 4).toString('hex')).toBe('6b387300'); // k8s\0
        const unknown = Unknown.toObject(Unknown.decode(raw.subarray(4))) as { typeMeta: { apiVersion: string; kind: string }; raw: Uint8Array };
        const { apiVersion, kind } = unknown.typeMeta;
        const message = root.lookupType(`k8s.io.api.core.v1.${kind}`);
        out.push({ type: event.type, apiVersion, kind, object: message.toObject(message.decode(unknown.raw)) as DecodedEvent['object'] });
      }
      return out;
    },
  };
}

describe('protobuf watch, framed as client-go reads it', () => {
  let server: RunningKapi;
  let admin: Required<Credentials>;
  let session: ClientHttp2Session | undefined;
  beforeAll(async () => {
    server = await startKapi();
    admin = adminCredentials(server.kubeconfig);
  });
  afterAll(async () => {
    session?.destroy();
    await server?.stop();
  });

  test('ADDED, MODIFIED, BOOKMARK and DELETED events with the ;stream=watch Content-Type', async () => {
    const json = { 'content-type': 'application/json' };
    const created = await call(server, admin, { method: 'POST', path: CMS, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pbw' }, data: { v: '0' } }), headers: json });
    expect(created.status).toBe(201);

    const reader = frameReader(loadProtos());
    const events: DecodedEvent[] = [];
    const waiters: { n: number; done: () => void }[] = [];
    session = connect(server.url, { ca: admin.ca, cert: admin.cert, key: admin.key });
    const stream = session.request({
      // kube sends a bookmark about once a minute and 2 s before the deadline: at 3 s here.
      ':path': `${CMS}?watch=true&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dpbw&timeoutSeconds=5`,
      accept: 'application/vnd.kubernetes.protobuf, */*',
    });
    const headers = await new Promise<Record<string, unknown>>((ok) => stream.once('response', (h) => ok(h)));
    expect(headers[':status']).toBe(200);
    expect(headers['content-type']).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    stream.on('data', (chunk: Buffer) => {
      events.push(...reader.push(chunk));
      for (const w of [...waiters]) if (events.length >= w.n) w.done();
    });
    const until = (n: number) => new Promise<void>((done) => (events.length >= n ? done() : waiters.push({ n, done })));

    await until(1); // the synthetic ADDED of a watch without resourceVersion
    const put = await call(server, admin, { method: 'PUT', path: `${CMS}/pbw`, body: JSON.stringify({ ...created.json(), data: { v: '1' } }), headers: json });
    expect(put.status).toBe(200);
    await until(3); // MODIFIED, then the bookmark due 2 s before the deadline
    const deleted = await call(server, admin, { method: 'DELETE', path: `${CMS}/pbw` });
    expect(deleted.status).toBe(200);
    await until(4);

    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'BOOKMARK', 'DELETED']);
    for (const e of events) expect(`${e.apiVersion}/${e.kind}`).toBe('v1/ConfigMap');
    expect(events[0]!.object.data).toEqual({ v: '0' });
    expect(events[1]!.object.data).toEqual({ v: '1' });
    expect(events[1]!.object.metadata?.resourceVersion).toBe(put.json().metadata.resourceVersion);
    // A bookmark carries only the resourceVersion.
    expect(events[2]!.object.metadata?.name).toBeUndefined();
    expect(Number(events[2]!.object.metadata?.resourceVersion)).toBeGreaterThanOrEqual(Number(put.json().metadata.resourceVersion));
    expect(events[3]!.object.metadata?.name).toBe('pbw');
    stream.close();
  });
});
