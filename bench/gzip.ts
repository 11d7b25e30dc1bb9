// Response compression (kube's APIResponseCompression): a LIST of 5,000 ConfigMaps
// over HTTP/2 TLS with `Accept-Encoding: gzip` (what client-go's transport sends)
// against the same LIST without it, same kapi, same session, in turns:
// - bytes on the wire: the gzipped body's length over the plain body's;
// - time: lists per second with gzip (the client's gunzip included, as client-go
//   pays it) over lists per second without.
// Both rows are report-only: on loopback the bytes saved cost CPU and save no
// transfer time, so the time ratio shows what compression costs where the network is
// free; over a real link the bytes ratio is what pays for it.
import { randomBytes } from 'node:crypto';
import { connect, type ClientHttp2Session } from 'node:http2';
import { gunzipSync } from 'node:zlib';
import { paired, ratioRow, type Bench, type BenchRow, type RunOptions } from './lib.js';
import { startKapiProcess } from './support/kapi-process.js';

const CMS = '/api/v1/namespaces/default/configmaps';

/** A ConfigMap as people write them: a few keys of text, one of less repetitive bytes. */
function configMap(i: number): object {
  return {
    metadata: { name: `gz-${i}`, labels: { app: 'bench', shard: String(i % 16) } },
    data: { 'app.properties': `server.port=${8000 + (i % 100)}\nlog.level=info\nfeature.x=${i % 2 === 0}\n`, token: randomBytes(96).toString('base64') },
  };
}

function get(session: ClientHttp2Session, path: string, headers: Record<string, string>): Promise<{ status: number; wire: number; body: Buffer }> {
  return new Promise((ok, fail) => {
    const stream = session.request({ ':method': 'GET', ':path': path, accept: 'application/json', ...headers });
    let status = 0;
    let gzipped = false;
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      status = Number(h[':status']);
      gzipped = h['content-encoding'] === 'gzip';
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const wire = Buffer.concat(chunks);
      ok({ status, wire: wire.length, body: gzipped ? gunzipSync(wire) : wire });
    });
    stream.on('error', fail);
    stream.end();
  });
}

async function post(session: ClientHttp2Session, body: object): Promise<void> {
  return new Promise((ok, fail) => {
    const stream = session.request({ ':method': 'POST', ':path': CMS, 'content-type': 'application/json' });
    let status = 0;
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.resume();
    stream.on('end', () => (status === 201 ? ok() : fail(new Error(`POST ${status}`))));
    stream.on('error', fail);
    stream.end(JSON.stringify(body));
  });
}

async function run(opts: RunOptions): Promise<BenchRow[]> {
  const count = opts.quick ? 1000 : 5000;
  const lists = opts.quick ? 3 : 10;
  const kapi = await startKapiProcess();
  const { ca, cert, key } = kapi.credentials;
  const session = connect(`https://127.0.0.1:${kapi.port}`, { ca, cert, key });
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < count) await post(session, configMap(next++));
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    // One revision for both, so the bodies can be compared byte for byte while leases renew.
    const rv = (JSON.parse((await get(session, `${CMS}?limit=1`, {})).body.toString()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const exact = `${CMS}?resourceVersion=${rv}&resourceVersionMatch=Exact`;
    const plain = await get(session, exact, {});
    const gz = await get(session, exact, { 'accept-encoding': 'gzip' });
    if (plain.status !== 200 || gz.status !== 200) throw new Error(`LIST answered ${plain.status} / ${gz.status}`);
    if (!gz.body.equals(plain.body)) throw new Error('the gzipped LIST does not decompress to the plain one');
    const rate = (headers: Record<string, string>) => async (): Promise<number> => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < lists; i++) await get(session, CMS, headers);
      return lists / (Number(process.hrtime.bigint() - started) / 1e9);
    };
    const rates = await paired(opts.quick ? 1 : 3, rate({}), rate({ 'accept-encoding': 'gzip' }));
    const area = 'http/gzip';
    return [
      ratioRow({ area, name: `LIST ${count} ConfigMaps, bytes on the wire with gzip`, baselineName: 'same LIST without gzip', baseline: plain.wire / 1024, measured: gz.wire / 1024, unit: 'KiB' }),
      ratioRow({ area, name: `LIST ${count} ConfigMaps with gzip (HTTP/2 TLS, client gunzip)`, baselineName: 'same LIST without gzip', baseline: rates.baseline, measured: rates.measured, unit: 'lists/s' }),
    ];
  } finally {
    session.close();
    await kapi.stop();
  }
}

export const bench: Bench = { name: 'gzip', run };
