// kube-public/cluster-info (server/cluster-info.ts): the kubeconfig text kubeadm
// writes, and the ensure — created, left alone when right, its kubeconfig put back
// when wrong without touching the signatures or anything else.
import yaml from 'js-yaml';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { configMaps } from '../../src/apis/core/v1/index.js';
import { clusterInfoKubeconfig, ensureClusterInfo } from '../../src/server/cluster-info.js';
import { createStoreHarness, type StoreHarness } from '../support/store-harness.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const CA_B64 = Buffer.from(CA).toString('base64');
const at = { namespace: 'kube-public', name: 'cluster-info' };
const noSleep = { sleep: async () => undefined };

describe('clusterInfoKubeconfig: clientcmd.Write of a Config with only the cluster ""', () => {
  const cases: { name: string; serverUrl: string; server: string }[] = [
    { name: 'IPv4', serverUrl: 'https://127.0.0.1:6443', server: 'https://127.0.0.1:6443' },
    { name: 'IPv6 (plain, as go-yaml writes it)', serverUrl: 'https://[::1]:6443', server: 'https://[::1]:6443' },
    { name: 'a value YAML would misread is quoted', serverUrl: 'https://a: b#c', server: '"https://a: b#c"' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const text = clusterInfoKubeconfig({ serverUrl: c.serverUrl, caPem: CA });
      expect(text).toBe(
        `apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: ${CA_B64}\n    server: ${c.server}\n  name: ""\ncontexts: null\ncurrent-context: ""\nkind: Config\npreferences: {}\nusers: null\n`,
      );
      expect(yaml.load(text)).toEqual({
        apiVersion: 'v1',
        clusters: [{ cluster: { 'certificate-authority-data': CA_B64, server: c.serverUrl }, name: '' }],
        contexts: null,
        'current-context': '',
        kind: 'Config',
        preferences: {},
        users: null,
      });
    });
  }
});

describe('ensureClusterInfo', () => {
  let h: StoreHarness;
  beforeEach(async () => {
    h = await createStoreHarness({ namespaces: ['kube-public'] });
  });
  afterEach(async () => h.close());
  const opts = { serverUrl: 'https://127.0.0.1:6443', caPem: CA };
  const want = clusterInfoKubeconfig(opts);

  test('created, then left alone (same resourceVersion)', async () => {
    expect(await ensureClusterInfo(h.registry, opts, noSleep)).toBe('created');
    const first = await h.get(configMaps, at);
    expect(first?.data).toEqual({ kubeconfig: want });
    expect(await ensureClusterInfo(h.registry, opts, noSleep)).toBe('unchanged');
    expect((await h.get(configMaps, at))?.metadata.resourceVersion).toBe(first?.metadata.resourceVersion);
  });

  test('a wrong kubeconfig is put back; signatures and other keys stay', async () => {
    await h.create(configMaps, { metadata: { ...at }, data: JSON.parse('{"kubeconfig": "tampered", "jws-kubeconfig-abcdef": "sig", "other": "x", "__proto__": "p"}') });
    expect(await ensureClusterInfo(h.registry, opts, noSleep)).toBe('repaired');
    const data = (await h.get(configMaps, at))?.data as Record<string, string>;
    expect(Object.keys(data).sort()).toEqual(['__proto__', 'jws-kubeconfig-abcdef', 'kubeconfig', 'other']);
    expect(data.kubeconfig).toBe(want);
    expect(data['jws-kubeconfig-abcdef']).toBe('sig');
  });

  test('a new URL or CA (a restart with other flags) is put in', async () => {
    await ensureClusterInfo(h.registry, opts, noSleep);
    const moved = { serverUrl: 'https://127.0.0.1:7443', caPem: CA };
    expect(await ensureClusterInfo(h.registry, moved, noSleep)).toBe('repaired');
    expect(((await h.get(configMaps, at))?.data as Record<string, string>).kubeconfig).toBe(clusterInfoKubeconfig(moved));
  });

  test('a copy made immutable is replaced', async () => {
    await h.create(configMaps, { metadata: { ...at }, immutable: true, data: { kubeconfig: 'frozen' } });
    const old = await h.get(configMaps, at);
    expect(await ensureClusterInfo(h.registry, opts, noSleep)).toBe('repaired');
    const now = await h.get(configMaps, at);
    expect(now?.metadata.uid).not.toBe(old?.metadata.uid);
    expect(now?.data).toEqual({ kubeconfig: want });
    expect(now?.immutable).toBeUndefined();
  });

  test('missing data entirely is repaired', async () => {
    await h.create(configMaps, { metadata: { ...at } });
    expect(await ensureClusterInfo(h.registry, opts, noSleep)).toBe('repaired');
    expect((await h.get(configMaps, at))?.data).toEqual({ kubeconfig: want });
  });
});
