// Reading the --authorization-config file as kube-apiserver's LoadAndValidateData
// reads it: decode (a failure is "failed to load AuthorizationConfiguration from
// file: …"), validate (kube's aggregate of field errors), then kube-apiserver's
// own rules: a non-Webhook authorizer is named after its type in lower case, a
// reload keeps every non-Webhook type the server started with, and (kapi's rule,
// see below) no webhook uses InClusterConfig.
import { readFile, stat } from 'node:fs/promises';
import { AuthorizationConfigDecodeError, decodeAuthorizationConfiguration, type AuthorizationConfiguration } from './authorization-config.js';
import { aggregateMessage } from '../webhook/errors.js';
import { validateAuthorizationConfiguration } from './validation.js';

/** kapi's bound on the file (kube reads any size); 64 webhooks with long match conditions are far below it. */
export const MAX_AUTHORIZATION_CONFIG_BYTES = 3 * 1024 * 1024;

/** A fault of the file; the message is kube's text, on one line. */
export class AuthorizationConfigError extends Error {
  override readonly name = 'AuthorizationConfigError';
  constructor(message: string) {
    super(message.replace(/\s*\n\s*/g, ' '));
  }
}

export interface ParseAuthorizationConfigurationOptions {
  /**
   * Non-Webhook types the file must still declare: on a reload, those the server
   * started with (its RBAC and Node authorizers cannot come or go while it runs).
   */
  readonly requireNonWebhookTypes?: readonly string[];
}

/** The kube-apiserver checks after validation, as one aggregate (utilerrors.NewAggregate). */
function kubeApiserverErrors(config: AuthorizationConfiguration, required: readonly string[]): string[] {
  const errs: string[] = [];
  const seen = new Set<string>();
  for (const a of config.authorizers) {
    if (a.type === 'Webhook') {
      // kube documents InClusterConfig as "not allowed for kube-apiserver": the
      // in-cluster configuration is the server itself, which would then ask
      // itself for every decision. kapi refuses it here, at load.
      if (a.webhook?.connectionInfo.type === 'InClusterConfig') errs.push(`authorizer ${JSON.stringify(a.name)}: connectionInfo type InClusterConfig is not allowed for kube-apiserver`);
      continue;
    }
    seen.add(a.type);
    const expected = a.type.toLowerCase();
    if (a.name !== expected) errs.push(`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`);
  }
  const missing = [...new Set(required)].filter((t) => !seen.has(t)).sort();
  if (missing.length > 0) errs.push(`missing required types: [${missing.join(' ')}]`);
  return errs;
}

/**
 * Decodes and validates the file's content; throws AuthorizationConfigError.
 * Empty content is kube's empty configuration, refused for having no authorizers.
 */
export function parseAuthorizationConfiguration(text: string | Buffer, opts: ParseAuthorizationConfigurationOptions = {}): AuthorizationConfiguration {
  const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let config: AuthorizationConfiguration;
  try {
    config = decodeAuthorizationConfiguration(data);
  } catch (err) {
    if (err instanceof AuthorizationConfigDecodeError) throw new AuthorizationConfigError(`failed to load AuthorizationConfiguration from file: ${err.message}`);
    throw err;
  }
  const invalid = validateAuthorizationConfiguration(config);
  if (invalid.length > 0) throw new AuthorizationConfigError(aggregateMessage(invalid.map((e) => e.message)));
  const errs = kubeApiserverErrors(config, opts.requireNonWebhookTypes ?? []);
  if (errs.length > 0) throw new AuthorizationConfigError(aggregateMessage(errs));
  return config;
}

/** The non-Webhook types a configuration declares (what a reload must keep). */
export function nonWebhookTypes(config: AuthorizationConfiguration): string[] {
  return [...new Set(config.authorizers.map((a) => a.type).filter((t) => t !== 'Webhook'))];
}

/** The file's bytes, bounded; a failure reads as Go's os.ReadFile error. */
export async function readAuthorizationConfigFile(file: string): Promise<Buffer> {
  let data: Buffer;
  try {
    // Sized before it is read, so a wrong path (a device, a huge log) is refused cheaply.
    if ((await stat(file)).size > MAX_AUTHORIZATION_CONFIG_BYTES) throw new AuthorizationConfigError(`${file}: file is larger than ${MAX_AUTHORIZATION_CONFIG_BYTES} bytes`);
    data = await readFile(file);
  } catch (err) {
    if (err instanceof AuthorizationConfigError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (err as Error).message;
    throw new AuthorizationConfigError(`${code === 'EISDIR' ? 'read' : 'open'} ${file}: ${why}`);
  }
  return data;
}

/** kube's LoadAndValidateFile: the configuration and the bytes it came from. */
export async function loadAuthorizationConfigFile(file: string, opts: ParseAuthorizationConfigurationOptions = {}): Promise<{ config: AuthorizationConfiguration; data: Buffer }> {
  const data = await readAuthorizationConfigFile(file);
  return { config: parseAuthorizationConfiguration(data, opts), data };
}
