// Private etcd for tests. describeWithEtcd starts one etcd per describe block
// (per test file in practice: starting etcd costs ~0.5 s), and decides what a
// machine without etcd does: skip, or — with KAPI_REQUIRE_ETCD=1, as CI sets —
// fail loudly so etcd coverage can never silently disappear.
import { createServer, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { etcdAvailable, startEtcd, type EtcdProcess, type StartEtcdOptions } from '../../bench/support/etcd-process.js';

export { etcdAvailable, startEtcd, type EtcdProcess, type StartEtcdOptions };

export interface EtcdContext {
  /** The running etcd; only valid inside tests and hooks (after beforeAll). */
  readonly etcd: EtcdProcess;
}

export function isEtcdRequired(): boolean {
  return process.env['KAPI_REQUIRE_ETCD'] === '1';
}

export function describeWithEtcd(
  name: string,
  fn: (ctx: EtcdContext) => void,
  opts: StartEtcdOptions = {},
): void {
  if (!etcdAvailable()) {
    if (isEtcdRequired()) {
      describe(name, () => {
        test('etcd is installed (KAPI_REQUIRE_ETCD=1)', () => {
          throw new Error('KAPI_REQUIRE_ETCD=1 but no `etcd` binary is on PATH: install etcd-server');
        });
      });
    } else {
      describe.skip(`${name} (no etcd binary on PATH)`, () => fn(unstarted));
    }
    return;
  }
  let running: EtcdProcess | undefined;
  describe(name, () => {
    beforeAll(async () => {
      running = await startEtcd(opts);
    });
    afterAll(async () => {
      await running?.stop();
    });
    fn({
      get etcd(): EtcdProcess {
        if (running === undefined) throw new Error('etcd is not started yet: use it inside tests or hooks');
        return running;
      },
    });
  });
}

// Lets a skipped block still register its (skipped) tests by name.
const unstarted: EtcdContext = {
  get etcd(): EtcdProcess {
    throw new Error('etcd is not available');
  },
};

export interface TcpProxy {
  /** http://127.0.0.1:P forwarding to the target. */
  readonly endpoint: string;
  /** Drops every open connection and refuses new ones until resume(). */
  cut(): void;
  resume(): void;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy in front of etcd, so a test can cut one client off (its
 * watches disconnect) while another keeps writing and compacting directly: the
 * only way to make "history moved on while we were away" deterministic.
 */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = connect({ host: hostname, port: Number(port) });
    open.add(client).add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const listening = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${listening}`,
    cut() {
      refusing = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    resume() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
