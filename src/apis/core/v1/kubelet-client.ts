// How kapi reaches a node's kubelet, as kube-apiserver's NodeConnectionInfoGetter
// and kubelet transport do: https to the node's first address of the preferred
// types, on the port its status names (10250 when none); the client certificate
// of --kubelet-client-certificate/--kubelet-client-key when given; the kubelet's
// serving certificate checked against --kubelet-certificate-authority, and not at
// all without one (kube's default). Failures read as Go's net/http words them
// (`Get "https://…": dial tcp …: connect: connection refused`), answered 500 with
// no reason, as kube answers an error that is no API error.
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { backendError } from '../../../errors/status-error.js';
import type { KubeObject } from '../../../schema/object.js';
import { itemsAt, objectAt, stringAt } from './helpers.js';

export interface KubeletClientConfig {
  /** --kubelet-preferred-address-types, in order. */
  readonly preferredAddressTypes: readonly string[];
  /** The port when the node's status names none (kube's ports.KubeletPort). */
  readonly defaultPort: number;
  /** PEM of --kubelet-client-certificate and --kubelet-client-key; absent: no client certificate. */
  readonly clientCert?: Buffer;
  readonly clientKey?: Buffer;
  /** PEM of --kubelet-certificate-authority; absent: the kubelet's certificate is not verified. */
  readonly ca?: Buffer;
}

export const DEFAULT_PREFERRED_ADDRESS_TYPES: readonly string[] = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
export const DEFAULT_KUBELET_CLIENT: KubeletClientConfig = { preferredAddressTypes: DEFAULT_PREFERRED_ADDRESS_TYPES, defaultPort: 10250 };

/** Go's net/http dial timeout (DefaultTransport's dialer). */
const DIAL_TIMEOUT_MS = 30_000;

export interface KubeletEndpoint {
  readonly host: string;
  readonly port: number;
}

/** GetPreferredNodeAddress and the daemon endpoint's port; a node with none of the types is kube's 500. */
export function kubeletEndpoint(node: KubeObject, cfg: KubeletClientConfig): KubeletEndpoint {
  const status = objectAt(node, 'status');
  const addresses = itemsAt(status, 'addresses');
  let host: string | undefined;
  for (const type of cfg.preferredAddressTypes) {
    host = addresses.find((a) => stringAt(a, 'type') === type)?.address as string | undefined;
    if (typeof host === 'string') break;
  }
  if (typeof host !== 'string') {
    // Go's %v of []NodeAddress: [{InternalIP 10.0.0.1} {Hostname n1}].
    const known = addresses.map((a) => `{${stringAt(a, 'type')} ${stringAt(a, 'address')}}`).join(' ');
    throw backendError(`no preferred addresses found; known addresses: [${known}]`);
  }
  // DaemonEndpoint's one member is spelled `Port` on the wire.
  const declared = objectAt(objectAt(status, 'daemonEndpoints'), 'kubeletEndpoint')?.Port;
  return { host, port: typeof declared === 'number' && declared > 0 ? declared : cfg.defaultPort };
}

/** Go's net.JoinHostPort: IPv6 literals in brackets. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** What Go's dialer says for the errno Node reports, after `dial tcp <addr>: `. */
function dialText(err: NodeJS.ErrnoException, hostPort: string, host: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${hostPort}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `dial tcp ${hostPort}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${hostPort}: connect: network is unreachable`;
    case 'ETIMEDOUT':
      return `dial tcp ${hostPort}: i/o timeout`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${host}: no such host`;
    case 'ECONNRESET':
      return `read tcp ${hostPort}: read: connection reset by peer`;
    default:
      return err.code !== undefined && err.code.startsWith('ERR_TLS') ? `tls: ${err.message}` : err.message;
  }
}

/** Go's %q of a URL: the text in double quotes, `"` and `\` escaped. */
function quoted(text: string): string {
  return JSON.stringify(text);
}

/**
 * GET of `url` on a kubelet. Resolves with the response whatever its code (the
 * caller maps codes); a redirect, a failed dial or handshake rejects with kube's
 * 500. `insecure` skips verifying the kubelet's certificate even with a CA
 * (insecureSkipTLSVerifyBackend); the client certificate is still presented.
 */
export function kubeletGet(url: URL, cfg: KubeletClientConfig, opts: { insecure: boolean; signal: AbortSignal }): Promise<IncomingMessage> {
  const hostPort = joinHostPort(url.hostname.replace(/^\[|\]$/g, ''), Number(url.port));
  return new Promise((resolve, reject) => {
    const verify = cfg.ca !== undefined && !opts.insecure;
    const req = httpsRequest(url, {
      method: 'GET',
      rejectUnauthorized: verify,
      ...(verify ? { ca: cfg.ca } : {}),
      ...(cfg.clientCert === undefined || cfg.clientKey === undefined ? {} : { cert: cfg.clientCert, key: cfg.clientKey }),
      signal: opts.signal,
      timeout: DIAL_TIMEOUT_MS,
      headers: { 'user-agent': 'kapi' },
    });
    req.once('timeout', () => req.destroy(Object.assign(new Error('dial timeout'), { code: 'ETIMEDOUT' })));
    req.once('error', (err: NodeJS.ErrnoException) => reject(backendError(`Get ${quoted(url.toString())}: ${dialText(err, hostPort, url.hostname)}`)));
    req.once('response', (res) => {
      // Only the connection was timed; a log that follows may be quiet for hours.
      req.setTimeout(0);
      const code = res.statusCode ?? 0;
      if (code >= 300 && code < 400) {
        res.destroy();
        reject(backendError(`Get ${quoted(url.toString())}: redirects forbidden`));
        return;
      }
      resolve(res);
    });
    req.end();
  });
}
