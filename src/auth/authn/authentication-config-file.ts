// The --authentication-config file over time: read and checked at start (any
// fault stops the start with kube's one line), turned into the JWT
// authenticators it declares, and re-read while the server runs, as
// kube-apiserver re-reads it: a changed file that decodes, validates and whose
// issuers answer replaces the authenticators; one that does not leaves the last
// good configuration serving, and `anonymous` may not change from the start's.
import { readFile, stat } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import type { Authenticator } from './authenticator.js';
import { AuthenticationConfigDecodeError, decodeAuthenticationConfiguration, type AnonymousAuthConfig, type AuthenticationConfiguration } from './authentication-config.js';
import { aggregateMessage, validateAuthenticationConfiguration, type CelMapper } from './authentication-config-validation.js';
import { forbiddenField, path } from '../../schema/field-errors.js';
import { ALL_SIGNING_ALGS, createJwtAuthenticator, type JwtAuthenticator } from './jwt.js';
import { unionAuthenticator } from './union.js';

/**
 * kapi's bound on the file (kube reads any size): a configuration of 64 issuers
 * with long expressions is far below it, and a file past it is a mistake.
 */
export const MAX_AUTHENTICATION_CONFIG_BYTES = 3 * 1024 * 1024;

export interface LoadedAuthenticationConfig {
  readonly config: AuthenticationConfiguration;
  readonly mappers: readonly CelMapper[];
  /** The file's text, to tell a changed file from a touched one. */
  readonly data: string;
}

/** A fault of the file; the message is the whole start error line (one line, whatever a library's text held). */
export class AuthenticationConfigError extends Error {
  override readonly name = 'AuthenticationConfigError';
  constructor(message: string) {
    super(message.replace(/\s*\n\s*/g, ' '));
  }
}

export interface CheckOptions {
  /** --service-account-issuer: a JWT issuer may not claim it. */
  readonly disallowedIssuers: readonly string[];
}

/** Decodes and validates bytes; throws AuthenticationConfigError with the text after kube's file prefix. */
export function checkAuthenticationConfig(data: Buffer, opts: CheckOptions): LoadedAuthenticationConfig {
  let config: AuthenticationConfiguration;
  try {
    config = decodeAuthenticationConfiguration(data);
  } catch (err) {
    if (err instanceof AuthenticationConfigDecodeError) throw new AuthenticationConfigError(err.message);
    throw err;
  }
  const { errors, mappers } = validateAuthenticationConfiguration(config, opts);
  if (errors.length > 0) throw new AuthenticationConfigError(`invalid authentication configuration: ${aggregateMessage(errors)}`);
  return { config, mappers, data: data.toString('utf8') };
}

async function readConfigFile(file: string): Promise<Buffer> {
  const info = await stat(file);
  if (info.size > MAX_AUTHENTICATION_CONFIG_BYTES) throw new Error(`file is larger than ${MAX_AUTHENTICATION_CONFIG_BYTES} bytes`);
  return readFile(file);
}

/**
 * The start's read (kube's ToAuthenticationConfig): a file that cannot be read or
 * decoded is "failed to load …", one that does not validate "invalid
 * authentication configuration: …"; `anonymous` in the file beside an explicit
 * --anonymous-auth is kube's Forbidden.
 */
export async function loadAuthenticationConfig(opts: CheckOptions & { readonly file: string; readonly anonymousFlagSet: boolean }): Promise<LoadedAuthenticationConfig> {
  let data: Buffer;
  try {
    data = await readConfigFile(opts.file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? `open ${opts.file}: no such file or directory` : code === 'EISDIR' ? `read ${opts.file}: is a directory` : code === 'EACCES' ? `open ${opts.file}: permission denied` : (err as Error).message;
    throw new AuthenticationConfigError(`failed to load authentication configuration from file ${JSON.stringify(opts.file)}: ${why}`);
  }
  let decoded: AuthenticationConfiguration;
  try {
    decoded = decodeAuthenticationConfiguration(data);
  } catch (err) {
    if (err instanceof AuthenticationConfigDecodeError) throw new AuthenticationConfigError(`failed to load authentication configuration from file ${JSON.stringify(opts.file)}: ${err.message}`);
    throw err;
  }
  if (decoded.anonymous !== undefined && opts.anonymousFlagSet) {
    throw new AuthenticationConfigError(forbiddenField(path('anonymous'), '--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file').message);
  }
  return checkAuthenticationConfig(data, opts);
}

export interface AuthenticationConfigAuthenticator {
  /** The JWT authenticators of the configuration in force. */
  readonly authenticate: Authenticator;
  /** The start's `anonymous` section (reloads may not change it). */
  readonly anonymous: AnonymousAuthConfig | undefined;
  /**
   * Builds the authenticators of `loaded`, waits for each issuer to answer (kube's
   * health check before the swap), then swaps them in. Rejects, leaving the
   * current ones in force, when an issuer cannot be reached.
   */
  update(loaded: LoadedAuthenticationConfig): Promise<void>;
}

export interface AuthenticatorBuildOptions {
  readonly clock?: () => Date;
  readonly refreshIntervalMs?: number;
}

function build(loaded: LoadedAuthenticationConfig, opts: AuthenticatorBuildOptions): JwtAuthenticator[] {
  // kapi has no --egress-selector-config-file, so (as kube-apiserver without one)
  // an issuer that asks for an egress selector cannot be reached.
  const egress = loaded.config.jwt.find((j) => j.issuer.egressSelectorType !== '');
  if (egress !== undefined) throw new AuthenticationConfigError(`oidc: egress lookup required with egress selector type ${JSON.stringify(egress.issuer.egressSelectorType)}`);
  return loaded.config.jwt.map((config, i) =>
    createJwtAuthenticator({
      config,
      mapper: loaded.mappers[i]!,
      // Every algorithm kube knows is allowed with the file (the key decides).
      signingAlgs: ALL_SIGNING_ALGS,
      ...(opts.clock === undefined ? {} : { clock: opts.clock }),
      ...(opts.refreshIntervalMs === undefined ? {} : { refreshIntervalMs: opts.refreshIntervalMs }),
    }),
  );
}

export function createAuthenticationConfigAuthenticator(initial: LoadedAuthenticationConfig, opts: AuthenticatorBuildOptions = {}): AuthenticationConfigAuthenticator {
  const union = (list: readonly JwtAuthenticator[]) => unionAuthenticator(...list.map((a) => a.authenticate));
  let current = union(build(initial, opts));
  return {
    authenticate: (req) => current(req),
    anonymous: initial.config.anonymous,
    async update(loaded) {
      const next = build(loaded, opts);
      await Promise.all(next.map((a) => a.init()));
      current = union(next);
    },
  };
}

export interface ReloadOptions extends CheckOptions {
  readonly file: string;
  readonly authenticator: AuthenticationConfigAuthenticator;
  /** The text the authenticator was built from. */
  readonly initialData: string;
  /** How often the file is looked at (kube: on change events, and once a minute). */
  readonly intervalMs: number;
  /** How long a file whose issuers did not answer waits before it is tried again (kube polls such an update every 10 s). */
  readonly retryMs?: number;
  readonly onReloaded: () => void;
  readonly onError: (message: string) => void;
}

/**
 * Re-reads the file every `intervalMs`. A file that does not decode or validate
 * is remembered so it is reported once ("never will be" valid, in kube's words);
 * one whose issuers do not answer is tried again at the next look. Stop with the
 * returned function.
 */
export function watchAuthenticationConfig(opts: ReloadOptions): () => void {
  let tracked = opts.initialData;
  let running = false;
  // The text whose issuers did not answer, and when it may be tried again.
  let failed: { text: string; retryAt: number } | undefined;
  const look = async (): Promise<void> => {
    let data: Buffer;
    try {
      data = await readConfigFile(opts.file);
    } catch (err) {
      return opts.onError(`failed to read authentication config file: ${(err as Error).message}`);
    }
    const text = data.toString('utf8');
    if (text === tracked) return;
    if (failed !== undefined && failed.text === text && Date.now() < failed.retryAt) return;
    let loaded: LoadedAuthenticationConfig;
    try {
      loaded = checkAuthenticationConfig(data, opts);
      if (!isDeepStrictEqual(loaded.config.anonymous, opts.authenticator.anonymous)) {
        throw new AuthenticationConfigError(`invalid authentication configuration: ${forbiddenField(path('anonymous'), 'changed from initial configuration file').message}`);
      }
    } catch (err) {
      if (!(err instanceof AuthenticationConfigError)) throw err;
      tracked = text;
      return opts.onError(`failed to load authentication config: ${err.message}`);
    }
    try {
      await opts.authenticator.update(loaded);
    } catch (err) {
      failed = { text, retryAt: Date.now() + (opts.retryMs ?? 10_000) };
      return opts.onError(`failed to update authentication config: ${(err as Error).message}`);
    }
    failed = undefined;
    tracked = text;
    opts.onReloaded();
  };
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    look()
      .catch((err: unknown) => opts.onError(`reloading authentication config: ${(err as Error).message}`))
      .finally(() => {
        running = false;
      });
  }, opts.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
