// The --authorization-config file over time, as kube-apiserver's
// reloadableAuthorizerResolver keeps it: read at start (a bad file stops the
// start), then looked at again when it changes and every interval (kube: one
// minute). New bytes that decode, validate and build replace the authorizer
// behind a stable wrapper; anything else keeps the last good one and is reported
// once (the bytes are remembered), and equal configurations are not rebuilt.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { AuthorizerMode } from '../authorizer.js';
import type { AuthorizationConfiguration } from './authorization-config.js';
import { readAuthorizationConfigFile } from './load.js';

export type ReloadStatus = 'success' | 'failure';

export interface AuthorizationConfigReloaderOptions {
  readonly path: string;
  /** Decodes and validates (parseAuthorizationConfiguration with the start's non-Webhook types); throws when invalid. */
  readonly parse: (data: Buffer) => AuthorizationConfiguration;
  /** Builds the authorizer of a valid configuration; throws when it cannot. */
  readonly build: (config: AuthorizationConfiguration) => AuthorizerMode;
  /** How often the file is read even without a change event (default one minute, kube's reloadInterval). */
  readonly intervalMs?: number;
  /** Whether to react to change events as well (fs.watch on the folder; default true). */
  readonly watchEvents?: boolean;
  readonly clock?: () => Date;
  readonly onError: (message: string) => void;
  /**
   * An automatic reload's outcome, for apiserver_authorization_config_controller_automatic_
   * reloads_total and _automatic_reload_last_timestamp_seconds; `data` is the text now in force on success.
   */
  readonly onReload: (status: ReloadStatus, at: Date, data?: string) => void;
}

export interface AuthorizationConfigReloader {
  /** Always the configuration in force; hand this to the server once. */
  readonly authorizer: AuthorizerMode;
  /** The text of the configuration in force (for the last_config_info hash). */
  readonly data: () => string;
  /** Looks at the file now; looks never overlap. What the timer and change events call. */
  check(): Promise<void>;
  stop(): void;
}

/**
 * Reads, parses and builds the start's configuration (rejecting with the
 * parse or build error when it cannot), then starts watching.
 */
export async function createAuthorizationConfigReloader(opts: AuthorizationConfigReloaderOptions): Promise<AuthorizationConfigReloader> {
  let lastRead = await readAuthorizationConfigFile(opts.path);
  let lastConfig = opts.parse(lastRead);
  let current = opts.build(lastConfig);
  let inForce = lastRead.toString('utf8');
  const clock = opts.clock ?? (() => new Date());
  const failed = (err: unknown) => {
    opts.onError(`reloading authorization config: ${(err as Error).message}`);
    opts.onReload('failure', clock());
  };

  async function look(): Promise<void> {
    let data: Buffer;
    try {
      data = await readAuthorizationConfigFile(opts.path);
    } catch (err) {
      return failed(err);
    }
    if (data.equals(lastRead)) return;
    lastRead = data;
    let config: AuthorizationConfiguration;
    try {
      config = opts.parse(data);
    } catch (err) {
      return failed(err);
    }
    // Other bytes, same meaning (a comment, reordered keys): nothing to rebuild.
    if (isDeepStrictEqual(config, lastConfig)) return;
    lastConfig = config;
    let next: AuthorizerMode;
    try {
      next = opts.build(config);
    } catch (err) {
      return failed(err);
    }
    current = next;
    inForce = data.toString('utf8');
    opts.onReload('success', clock(), inForce);
  }

  let running: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  const check = (): Promise<void> => {
    // One look waiting behind the running one serves every request made meanwhile.
    if (queued !== undefined) return queued;
    const next = running
      .then(() => {
        queued = undefined;
        return look();
      })
      .catch((err: unknown) => opts.onError(`reloading authorization config: ${(err as Error).message}`));
    queued = next;
    running = next;
    return next;
  };

  const timer = setInterval(() => void check(), opts.intervalMs ?? 60_000);
  timer.unref();
  let watcher: FSWatcher | undefined;
  if (opts.watchEvents ?? true) {
    // The folder, not the file: editors and config management replace the file by renaming.
    try {
      watcher = watch(dirname(opts.path), { persistent: false }, (_event, name) => {
        if (name === null || name === basename(opts.path)) void check();
      });
      watcher.on('error', (err) => opts.onError(`watching authorization config file: ${err.message}`));
    } catch (err) {
      opts.onError(`watching authorization config file: ${(err as Error).message}`);
    }
  }
  return {
    authorizer: { authorize: (attrs) => current.authorize(attrs), rulesFor: (user, ns) => current.rulesFor(user, ns) },
    data: () => inForce,
    check,
    stop() {
      clearInterval(timer);
      watcher?.close();
    },
  };
}
