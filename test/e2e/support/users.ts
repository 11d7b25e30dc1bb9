// Identities other than the admin for e2e tests: a client certificate signed by the
// server's CA (CN the user, O each group) and a kubeconfig that kubectl reads it from.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { issueClientCertificate } from '../../../src/auth/pki/issue.js';

export interface UserCredentials {
  readonly cert: string;
  readonly key: string;
  /** A kubeconfig for this user beside the server's admin one. */
  readonly kubeconfig: string;
}

export async function userCredentials(server: { dataDir: string; kubeconfig: string }, name: string, groups: readonly string[] = []): Promise<UserCredentials> {
  const ca = { certPem: readFileSync(join(server.dataDir, 'pki/ca.crt'), 'utf8'), keyPem: readFileSync(join(server.dataDir, 'pki/ca.key'), 'utf8') };
  const pair = await issueClientCertificate({ ca, commonName: name, organizations: [...groups], validityDays: 1 });
  const admin = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as { clusters: { name: string; cluster: Record<string, string> }[] };
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: admin.clusters,
    users: [{ name, user: { 'client-certificate-data': Buffer.from(pair.certPem).toString('base64'), 'client-key-data': Buffer.from(pair.keyPem).toString('base64') } }],
    contexts: [{ name, context: { cluster: admin.clusters[0]!.name, user: name } }],
    'current-context': name,
  };
  const path = join(server.dataDir, `${name.replace(/[^a-z0-9-]/gi, '_')}.kubeconfig`);
  writeFileSync(path, yaml.dump(config), { mode: 0o600 });
  return { cert: pair.certPem, key: pair.keyPem, kubeconfig: path };
}
