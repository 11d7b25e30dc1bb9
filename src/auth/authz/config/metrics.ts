// The reload metrics of --authorization-config in kube-apiserver's names and
// labels (apiserver pkg/server/options/authorizationconfig/metrics): automatic
// reloads by status and the server's identity, the time of the last one, and an
// info series naming the hash of the configuration in force. Identities and
// contents are labelled by sha256 ("sha256:<hex>"), as kube does, never raw.
import { createHash } from 'node:crypto';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReloadStatus } from './reload.js';

export interface AuthorizationConfigMetrics {
  /** An automatic reload's outcome (wire to the reloader's onReload). */
  recordReload(status: ReloadStatus, at: Date): void;
  /** The configuration now in force (at start and after each successful reload). */
  recordConfig(data: string): void;
}

/** kube's getHash: empty stays empty. */
function hash(data: string): string {
  return data === '' ? '' : `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/** The series on `registry` for the server whose APIServerID is `apiServerId`; create once per registry. */
export function promAuthorizationConfigMetrics(opts: { readonly registry: Registry; readonly apiServerId: string }): AuthorizationConfigMetrics {
  const registers = [opts.registry];
  const idHash = hash(opts.apiServerId);
  const reloads = new Counter({
    name: 'apiserver_authorization_config_controller_automatic_reloads_total',
    help: 'Total number of automatic reloads of authorization configuration split by status and apiserver identity.',
    labelNames: ['status', 'apiserver_id_hash'],
    registers,
  });
  const lastReload = new Gauge({
    name: 'apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds',
    help: 'Timestamp of the last automatic reload of authorization configuration split by status and apiserver identity.',
    labelNames: ['status', 'apiserver_id_hash'],
    registers,
  });
  const info = new Gauge({
    name: 'apiserver_authorization_config_controller_last_config_info',
    help: 'Information about the last applied authorization configuration with hash as label, split by apiserver identity.',
    labelNames: ['apiserver_id_hash', 'hash'],
    registers,
  });
  return {
    recordReload(status, at) {
      reloads.inc({ status, apiserver_id_hash: idHash });
      lastReload.set({ status, apiserver_id_hash: idHash }, at.getTime() / 1000);
    },
    recordConfig(data) {
      // One series: the configuration in force replaces the previous one.
      info.reset();
      info.set({ apiserver_id_hash: idHash, hash: hash(data) }, 1);
    },
  };
}
