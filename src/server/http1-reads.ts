// HTTP/1.1 over TLS: the request bytes reach Node's HTTP parser through the socket's
// stream, never straight from the TLS handle.
//
// Node (20 and later) lets its HTTP/1.1 parser "consume" a socket's native handle so
// that bytes skip the JavaScript stream. When an answer's write meets backpressure
// (a 20 KB object is enough) and the next request on the keep-alive connection
// arrives before 'drain', Node pauses the socket and the parser. A paused TCP handle
// stops at once, but the TLS handle keeps handing over the records it has already
// decrypted from the same read (16 KiB at a time): the paused parser answers them
// with HPE_PAUSED, Node calls that a parse error and closes the connection. The
// request is lost unanswered and unlogged (issue 32; NODE_DEBUG=http shows
// `write ret = false`, `pause parser`, `parse error … HPE_PAUSED`).
//
// A 'data' listener makes Node unconsume the handle (its documented reaction to one),
// so the bytes go through the socket's Readable: pausing it then buffers what TLS
// still hands over and replays it on resume, which is the flow control Node meant.
// The cost is one Buffer per TLS record through the stream machinery.
import type { TLSSocket } from 'node:tls';

interface SecureConnectionSource {
  on(event: 'secureConnection', listener: (socket: TLSSocket) => void): unknown;
}

const ignore = (): void => {};

/**
 * Registers after the HTTP/2 server's own connection listener (it must, to find the
 * HTTP/1.1 parser already attached), so call it once the server exists.
 */
export function readHttp1ThroughStream(server: unknown): void {
  if (typeof (server as { on?: unknown }).on !== 'function') return;
  (server as SecureConnectionSource).on('secureConnection', (socket) => {
    if (socket.alpnProtocol === 'h2') return;
    socket.on('data', ignore);
  });
}
