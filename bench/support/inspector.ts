// A minimal client of Node's inspector (the Chrome DevTools protocol over a
// WebSocket) so a bench can make another process collect garbage and report
// process.memoryUsage(). Node 20 has no WebSocket client, and the bench adds no
// dependency for one: this speaks just enough of RFC 6455 (one unfragmented
// masked text frame per command, unmasked frames back) for the inspector on
// loopback. The process must run with --inspect=127.0.0.1:<port>.
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface Inspector {
  /** HeapProfiler.collectGarbage: a full, compacting GC of the inspected process. */
  collectGarbage(): Promise<void>;
  /** The inspected process's process.memoryUsage(), in bytes. */
  memoryUsage(): Promise<NodeJS.MemoryUsage>;
  close(): void;
}

function getJson(url: string): Promise<unknown> {
  return new Promise((ok, fail) => {
    get(url, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => {
        try {
          ok(JSON.parse(body));
        } catch (err) {
          fail(err);
        }
      });
    }).once('error', fail);
  });
}

/** One client frame: FIN + text, masked as RFC 6455 requires of clients. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x81, 0x80 | len]) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (len >= 126 && len < 65536) {
    head[0] = 0x81;
    head[1] = 0x80 | 126;
    head.writeUInt16BE(len, 2);
  } else if (len >= 65536) {
    head[0] = 0x81;
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  const mask = randomBytes(4);
  for (let i = 0; i < len; i++) payload[i]! ^= mask[i % 4]!;
  return Buffer.concat([head, mask, payload]);
}

/** Splits complete server frames (unmasked) off `buf`; returns their text payloads and the rest. */
function readFrames(buf: Buffer): { texts: string[]; rest: Buffer } {
  const texts: string[] = [];
  let pos = 0;
  for (;;) {
    if (buf.length - pos < 2) break;
    let len = buf[pos + 1]! & 0x7f;
    let at = pos + 2;
    if (len === 126) {
      if (buf.length - at < 2) break;
      len = buf.readUInt16BE(at);
      at += 2;
    } else if (len === 127) {
      if (buf.length - at < 8) break;
      len = Number(buf.readBigUInt64BE(at));
      at += 8;
    }
    if (buf.length - at < len) break;
    // Text frames only; the inspector sends nothing else unasked.
    if ((buf[pos]! & 0x0f) === 1) texts.push(buf.subarray(at, at + len).toString('utf8'));
    pos = at + len;
  }
  return { texts, rest: buf.subarray(pos) };
}

async function upgrade(wsUrl: string): Promise<Socket> {
  const url = new URL(wsUrl);
  const socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((ok, fail) => {
    socket.once('error', fail);
    socket.once('connect', () => ok());
  });
  socket.write(
    `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const head = await new Promise<Buffer>((ok, fail) => {
    let got: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      got = Buffer.concat([got, chunk]);
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      if (end + 4 < got.length) socket.unshift(got.subarray(end + 4));
      ok(got.subarray(0, end));
    };
    socket.on('data', onData);
    socket.once('error', fail);
  });
  if (!head.toString('latin1').startsWith('HTTP/1.1 101')) throw new Error(`inspector refused the upgrade: ${head.toString('latin1').split('\r\n')[0]}`);
  return socket;
}

/** Connects to the inspector listening on 127.0.0.1:`port`. */
export async function openInspector(port: number): Promise<Inspector> {
  const targets = (await getJson(`http://127.0.0.1:${port}/json/list`)) as Array<{ webSocketDebuggerUrl?: string }>;
  const wsUrl = targets[0]?.webSocketDebuggerUrl;
  if (wsUrl === undefined) throw new Error('inspector lists no target');
  const socket = await upgrade(wsUrl);
  const waiting = new Map<number, { ok: (result: unknown) => void; fail: (err: Error) => void }>();
  let nextId = 1;
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    const { texts, rest } = readFrames(Buffer.concat([pending, chunk]));
    pending = rest;
    for (const text of texts) {
      const msg = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
      const w = msg.id === undefined ? undefined : waiting.get(msg.id);
      if (w === undefined) continue;
      waiting.delete(msg.id!);
      if (msg.error !== undefined) w.fail(new Error(`inspector: ${msg.error.message}`));
      else w.ok(msg.result);
    }
  });
  socket.on('close', () => {
    for (const w of waiting.values()) w.fail(new Error('inspector connection closed'));
    waiting.clear();
  });
  const send = (method: string, params: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((ok, fail) => {
      const id = nextId++;
      waiting.set(id, { ok, fail });
      socket.write(textFrame(JSON.stringify({ id, method, params })));
    });
  return {
    async collectGarbage() {
      await send('HeapProfiler.collectGarbage');
    },
    async memoryUsage() {
      const result = (await send('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true })) as {
        result: { value: string };
      };
      return JSON.parse(result.result.value) as NodeJS.MemoryUsage;
    },
    close() {
      socket.destroy();
    },
  };
}
