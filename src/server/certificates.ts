// Certificates at start: the serving certificate (given by flags, or generated
// with a CA in --cert-dir on first start and reused after), the CAs trusted for
// client certificates, and admin.kubeconfig — a system:masters client
// certificate, written at every start so the file always matches the server.
import type { Options } from './options.js';
import type { ValidatedFiles } from './options/validate-files.js';
import { ensurePki } from '../auth/pki/ensure-pki.js';
import { ensureAdminKubeconfig } from './kubeconfig.js';

export interface ServerCertificates {
  readonly servingCert: string;
  readonly servingKey: string;
  /** PEM bundle trusted for client certificates. */
  readonly clientCa: string;
  /** What clients trust to verify this server (admin.kubeconfig, kube-root-ca.crt). */
  readonly servingCa: string;
  readonly kubeconfigPath: string;
}

export async function prepareCertificates(opts: {
  options: Options;
  files: ValidatedFiles;
  serverUrl: string;
}): Promise<ServerCertificates> {
  const { options, files } = opts;
  const pki = await ensurePki({ dir: options.certDir, hosts: [options.bindAddress] });
  await ensureAdminKubeconfig({
    path: options.adminKubeconfigPath,
    serverUrl: opts.serverUrl,
    // With --tls-cert-file the kubeconfig trusts that bundle (self-signed, or a chain ending in its root).
    caPem: files.tlsCertPem ?? pki.caCertPem,
    signer: { certPem: pki.caCertPem, keyPem: pki.caKeyPem },
  });
  return {
    servingCert: files.tlsCertPem ?? pki.servingCertPem,
    servingKey: files.tlsKeyPem ?? pki.servingKeyPem,
    // The admin certificate is signed by the generated CA: trust it beside --client-ca-file.
    clientCa: files.clientCaPem === undefined ? pki.caCertPem : `${files.clientCaPem.trim()}\n${pki.caCertPem}`,
    servingCa: files.tlsCertPem ?? pki.caCertPem,
    kubeconfigPath: options.adminKubeconfigPath,
  };
}
