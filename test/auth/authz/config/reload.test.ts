// The --authorization-config file while the server runs (auth/authz/config/reload.ts,
// metrics.ts): a valid change applies behind the same authorizer object; an
// invalid, unbuildable or unreadable file keeps the last good one and reports a
// failure once per content; the same meaning in other bytes changes nothing;
// kube's reload metrics follow; a change event alone triggers a reload.
import { createHash } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { describe, expect, test } from 'vitest';
import type { AuthorizationAttributes, AuthorizerMode, Decision } from '../../../../src/auth/authz/authorizer.js';
import { buildConfiguredAuthorizer } from '../../../../src/auth/authz/config/build.js';
import { nonWebhookTypes, parseAuthorizationConfiguration } from '../../../../src/auth/authz/config/load.js';
import { promAuthorizationConfigMetrics } from '../../../../src/auth/authz/config/metrics.js';
import { createAuthorizationConfigReloader, type AuthorizationConfigReloaderOptions, type ReloadStatus } from '../../../../src/auth/authz/config/reload.js';

const mode = (decision: Decision): AuthorizerMode => ({ authorize: async () => ({ decision, reason: '' }), rulesFor: async () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }) });
const deps = { alwaysAllow: mode('Allow'), alwaysDeny: mode('Deny'), node: mode('NoOpinion') };
const attrs: AuthorizationAttributes = { user: { username: 'jane', groups: [] }, verb: 'get', isResourceRequest: false, path: '/x', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };

const config = (...types: string[]) => `apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n${types.map((t) => `- type: ${t}\n  name: ${t.toLowerCase()}\n`).join('')}`;

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-authz-reload-'));
  const file = join(dir, 'authz.yaml');
  /** Replaces the file at once, as editors and config management do. */
  const write = (text: string) => {
    writeFileSync(`${file}.tmp`, text);
    renameSync(`${file}.tmp`, file);
  };
  const reloads: ReloadStatus[] = [];
  const errors: string[] = [];
  let now = Date.parse('2030-01-01T00:00:00Z');
  const options = (overrides: Partial<AuthorizationConfigReloaderOptions> = {}): AuthorizationConfigReloaderOptions => ({
    path: file,
    parse: (data) => parseAuthorizationConfiguration(data),
    build: (c) => buildConfiguredAuthorizer(c, deps),
    intervalMs: 3_600_000,
    watchEvents: false,
    clock: () => new Date((now += 1000)),
    onError: (m) => errors.push(m),
    onReload: (status) => reloads.push(status),
    ...overrides,
  });
  return { file, write, reloads, errors, options };
}

describe('reloading', () => {
  test('valid changes apply; invalid, unbuildable and unreadable files keep the last good configuration', async () => {
    const t = setup();
    t.write(config('AlwaysDeny'));
    const reloader = await createAuthorizationConfigReloader(t.options());
    const steps: { name: string; change: () => void; want: { decision: Decision; reloads: ReloadStatus[]; error?: string } }[] = [
      { name: 'a valid change', change: () => t.write(config('AlwaysAllow')), want: { decision: 'Allow', reloads: ['success'] } },
      { name: 'an invalid file', change: () => t.write(config('Foo')), want: { decision: 'Allow', reloads: ['success', 'failure'], error: 'reloading authorization config: authorizers[0].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"' } },
      { name: 'the same invalid bytes again: reported once', change: () => {}, want: { decision: 'Allow', reloads: ['success', 'failure'] } },
      { name: 'the good configuration in other bytes: nothing to rebuild', change: () => t.write(`# a comment\n${config('AlwaysAllow')}`), want: { decision: 'Allow', reloads: ['success', 'failure'] } },
      { name: 'a file the server cannot build', change: () => t.write(config('RBAC')), want: { decision: 'Allow', reloads: ['success', 'failure', 'failure'], error: 'reloading authorization config: authorizer type RBAC is not allowed if it was not enabled at initial server startup' } },
      { name: 'a file that is gone', change: () => rmSync(t.file), want: { decision: 'Allow', reloads: ['success', 'failure', 'failure', 'failure'], error: `reloading authorization config: open ${t.file}: no such file or directory` } },
      { name: 'a valid file back', change: () => t.write(config('AlwaysDeny', 'AlwaysAllow')), want: { decision: 'Deny', reloads: ['success', 'failure', 'failure', 'failure', 'success'] } },
    ];
    try {
      for (const step of steps) {
        const errorsBefore = t.errors.length;
        step.change();
        await reloader.check();
        const got = { decision: (await reloader.authorizer.authorize(attrs)).decision, reloads: [...t.reloads], ...(t.errors.length > errorsBefore ? { error: t.errors.at(-1) } : {}) };
        expect(got, step.name).toEqual(step.want);
      }
    } finally {
      reloader.stop();
    }
  });

  test('a reload keeps the non-Webhook types the server started with', async () => {
    const t = setup();
    t.write(config('Node', 'AlwaysAllow'));
    const start = parseAuthorizationConfiguration(config('Node', 'AlwaysAllow'));
    const reloader = await createAuthorizationConfigReloader(t.options({ parse: (data) => parseAuthorizationConfiguration(data, { requireNonWebhookTypes: nonWebhookTypes(start) }) }));
    try {
      t.write(config('AlwaysDeny'));
      await reloader.check();
      expect({ reloads: t.reloads, errors: t.errors }).toEqual({ reloads: ['failure'], errors: ['reloading authorization config: missing required types: [AlwaysAllow Node]'] });
    } finally {
      reloader.stop();
    }
  });

  test('a file that is bad at start stops the start', async () => {
    const t = setup();
    t.write(config('AlwaysAllow', 'AlwaysAllow'));
    await expect(createAuthorizationConfigReloader(t.options())).rejects.toThrow('authorizers[1].type: Duplicate value: "AlwaysAllow"');
  });

  test('a change event alone reloads', async () => {
    const t = setup();
    t.write(config('AlwaysDeny'));
    let reloaded!: (status: ReloadStatus) => void;
    const next = new Promise<ReloadStatus>((resolve) => (reloaded = resolve));
    const reloader = await createAuthorizationConfigReloader(t.options({ watchEvents: true, onReload: (status) => reloaded(status) }));
    try {
      t.write(config('AlwaysAllow'));
      expect(await next).toBe('success');
      expect((await reloader.authorizer.authorize(attrs)).decision).toBe('Allow');
    } finally {
      reloader.stop();
    }
  });
});

test('reload metrics carry kube\'s names, labels and hashes', async () => {
  const t = setup();
  const registry = new Registry();
  const metrics = promAuthorizationConfigMetrics({ registry, apiServerId: 'apiserver-abc' });
  const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;
  t.write(config('AlwaysDeny'));
  const reloader = await createAuthorizationConfigReloader(
    t.options({
      clock: () => new Date('2030-01-01T00:00:10Z'),
      onReload: (status, at, data) => {
        metrics.recordReload(status, at);
        if (data !== undefined) metrics.recordConfig(data);
      },
    }),
  );
  try {
    metrics.recordConfig(reloader.data());
    t.write(config('AlwaysAllow'));
    await reloader.check();
    t.write('not: [valid');
    await reloader.check();
    const text = await registry.metrics();
    const id = sha('apiserver-abc');
    expect(text).toContain(`apiserver_authorization_config_controller_automatic_reloads_total{status="success",apiserver_id_hash="${id}"} 1`);
    expect(text).toContain(`apiserver_authorization_config_controller_automatic_reloads_total{status="failure",apiserver_id_hash="${id}"} 1`);
    expect(text).toContain(`apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds{status="success",apiserver_id_hash="${id}"} 1893456010`);
    expect(text).toContain(`apiserver_authorization_config_controller_last_config_info{apiserver_id_hash="${id}",hash="${sha(config('AlwaysAllow'))}"} 1`);
    expect(text).not.toContain(sha(config('AlwaysDeny')));
  } finally {
    reloader.stop();
  }
});
