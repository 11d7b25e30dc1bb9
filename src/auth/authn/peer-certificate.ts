// Reads the client's TLS certificates off the connection, for HTTP/1.1 and
// HTTP/2 alike, so authenticators never touch sockets. Results are kept per
// connection: the certificate cannot change after the handshake (TLS 1.3 has no
// renegotiation and Node refuses client-initiated renegotiation storms), and
// returning the same objects lets the x509 authenticator verify once per connection.
import type { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { TLSSocket } from 'node:tls';

type PeerSocket = Pick<TLSSocket, 'getPeerX509Certificate'>;

const byConnection = new WeakMap<object, readonly X509Certificate[]>();

function tlsSocketOf(raw: IncomingMessage | Http2ServerRequest): PeerSocket | undefined {
  // HTTP/2: the compat request's own `socket` is a per-stream proxy; the session's
  // socket is the connection. HTTP/1.1: the request's socket is the connection.
  const socket = 'stream' in raw ? raw.stream?.session?.socket : raw.socket;
  if (socket === undefined || socket === null) return undefined;
  return typeof (socket as Partial<PeerSocket>).getPeerX509Certificate === 'function' ? (socket as PeerSocket) : undefined;
}

/**
 * The certificates the client presented, leaf first, then what else the TLS
 * layer reports above it (intermediates the client sent); empty without TLS or
 * without a client certificate. Unverified: see x509.ts.
 */
export function peerCertificateOf(raw: IncomingMessage | Http2ServerRequest): readonly X509Certificate[] {
  const socket = tlsSocketOf(raw);
  if (socket === undefined) return [];
  const cached = byConnection.get(socket);
  if (cached !== undefined) return cached;
  const leaf = socket.getPeerX509Certificate();
  const chain: X509Certificate[] = [];
  if (leaf !== undefined) {
    chain.push(leaf);
    let current = leaf;
    // issuerCertificate walks the chain OpenSSL built from what the peer sent; it
    // ends at a self-issued certificate, or when the issuer is unknown.
    while (chain.length < 10) {
      const issuer = current.issuerCertificate;
      if (issuer === undefined || chain.some((c) => c.fingerprint256 === issuer.fingerprint256)) break;
      chain.push(issuer);
      current = issuer;
    }
  }
  byConnection.set(socket, chain);
  return chain;
}
