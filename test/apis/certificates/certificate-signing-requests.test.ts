// CertificateSigningRequest rules through the real registry: the PKCS#10 request
// (decodes, signature verifies), signer names, usages, expiration; the requesting
// user recorded on create; spec kept on update; approval conditions only through
// /approval and the certificate only through /status; the table's CONDITION.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { certificateSigningRequests } from '../../../src/apis/certificates/v1/certificate-signing-requests.js';
import { checkCertificateRequest } from '../../../src/apis/certificates/v1/csr-parse.js';
import { isStatusError } from '../../../src/errors/status-error.js';
import { tableForList } from '../../../src/registry/table.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { CERTIFICATE_PEM, EC_CSR_PEM, RSA_CSR_PEM, b64 } from '../../support/fixtures/csr-pems.js';
import { ADMIN } from '../../endpoints/harness.js';
import { createBuiltinHttpHarness, createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const spec = { request: b64(EC_CSR_PEM), signerName: 'example.com/signer', usages: ['client auth', 'digital signature'] };
const csr = (name: string, over: Record<string, unknown> = {}, rest: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: { ...spec, ...over },
  ...rest,
});

/** The EC request with one byte of its signature changed: it decodes, but does not verify. */
const TAMPERED = EC_CSR_PEM.replace('xj3PI3', 'xj3PI4');

describe('the request', () => {
  test('real EC and RSA requests verify; tampered, wrong-type and garbage ones do not', () => {
    expect(checkCertificateRequest(Buffer.from(EC_CSR_PEM))).toBe('');
    expect(checkCertificateRequest(Buffer.from(RSA_CSR_PEM))).toBe('');
    expect(checkCertificateRequest(Buffer.from(TAMPERED))).toBe('x509: ECDSA verification failure');
    expect(checkCertificateRequest(Buffer.from(CERTIFICATE_PEM))).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(checkCertificateRequest(Buffer.from('garbage'))).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(checkCertificateRequest(Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n'))).toBe(
      'asn1: structure error: malformed certificate request',
    );
    // Hostile DER: a length running past the end, and deep nesting, are errors, not throws.
    const huge = Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x30]).toString('base64');
    expect(checkCertificateRequest(Buffer.from(`-----BEGIN CERTIFICATE REQUEST-----\n${huge}\n-----END CERTIFICATE REQUEST-----\n`))).not.toBe('');
    // A body of BEGIN lines without END lines is read in one pass (no backtracking).
    const started = Date.now();
    expect(checkCertificateRequest(Buffer.from('-----BEGIN CERTIFICATE REQUEST-----\n'.repeat(100_000)))).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(checkCertificateRequest(Buffer.from(`-----BEGIN ${'A'.repeat(1_000_000)}`))).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(Date.now() - started).toBeLessThan(2000);
    const nested = Buffer.alloc(200, 0x30).toString('base64');
    expect(checkCertificateRequest(Buffer.from(`-----BEGIN CERTIFICATE REQUEST-----\n${nested}\n-----END CERTIFICATE REQUEST-----\n`))).not.toBe('');
  });
});

const createCases: { name: string; input: KubeObject; want: string[] }[] = [
  { name: 'EC request', input: csr('ec'), want: [] },
  { name: 'RSA request with an expiration', input: csr('rsa', { request: b64(RSA_CSR_PEM), expirationSeconds: 600 }), want: [] },
  { name: 'tampered signature', input: csr('bad', { request: b64(TAMPERED) }), want: [`spec.request: Invalid value: "${b64(TAMPERED)}": x509: ECDSA verification failure`] },
  { name: 'not a request', input: csr('bad', { request: b64(CERTIFICATE_PEM) }), want: [`spec.request: Invalid value: "${b64(CERTIFICATE_PEM)}": PEM block type must be CERTIFICATE REQUEST`] },
  { name: 'no usages', input: csr('bad', { usages: [] }), want: ['spec.usages: Required value'] },
  {
    name: 'unknown and duplicate usages',
    input: csr('bad', { usages: ['client auth', 'flying', 'client auth'] }),
    want: [expect.stringMatching(/^spec\.usages\[1\]: Unsupported value: "flying": supported values: "any", "cert sign", /), 'spec.usages[2]: Duplicate value: "client auth"'],
  },
  { name: 'no signer', input: csr('bad', { signerName: '' }), want: ['spec.signerName: Required value'] },
  {
    name: 'signer without a path',
    input: csr('bad', { signerName: 'example.com' }),
    want: ['spec.signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form \'example.com/signer-name\''],
  },
  {
    name: 'signer domain of one label',
    input: csr('bad', { signerName: 'example/signer' }),
    want: ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots'],
  },
  {
    name: 'legacy signer',
    input: csr('bad', { signerName: 'kubernetes.io/legacy-unknown' }),
    want: ['spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version'],
  },
  {
    name: 'expiration under ten minutes',
    input: csr('bad', { expirationSeconds: 599 }),
    want: ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)'],
  },
];

describe('create', () => {
  for (const c of createCases) {
    test(c.name, async () => {
      const res = await h.create(certificateSigningRequests, c.input);
      expect(res.errors).toEqual(c.want);
      expect(res.stored === undefined).toBe(c.want.length > 0);
    });
  }

  test('the requesting user goes into spec; a client-set one and status are dropped', async () => {
    const store = h.registry.store(certificateSigningRequests);
    const input = csr('who', { username: 'mallory', groups: ['system:masters'] }, { status: { conditions: [{ type: 'Approved', status: 'True' }] } });
    // In-process writes carry no user: the fields are cleared.
    const anonymous = await store.create(structuredClone(input));
    expect(anonymous.object.spec).toEqual(spec);
    expect(anonymous.object.status ?? {}).toEqual({});
  });
});

describe('updates and subresources', () => {
  const approved = { type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.' };
  const denied = { type: 'Denied', status: 'True', reason: 'KubectlDeny', message: 'This CSR was denied by kubectl certificate deny.' };

  async function approval(obj: KubeObject): Promise<{ object?: KubeObject; errors: string[] }> {
    const sub = h.registry.store(certificateSigningRequests).subresource('approval')!;
    try {
      const { object } = await sub.update(obj, { name: obj.metadata.name! });
      return { object, errors: [] };
    } catch (err) {
      if (isStatusError(err) && err.reason === 'Invalid') return { errors: (err.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`) };
      throw err;
    }
  }

  test('a main-resource update keeps spec and status; labels change', async () => {
    const { stored } = await h.create(certificateSigningRequests, csr('u'));
    const res = await h.update(certificateSigningRequests, {
      ...stored!,
      metadata: { ...stored!.metadata, labels: { a: 'b' } },
      spec: { ...spec, signerName: 'example.com/other', usages: ['server auth'] },
      status: { conditions: [approved] },
    });
    expect(res.errors).toEqual([]);
    expect(res.stored!.spec).toEqual(stored!.spec);
    expect(res.stored!.status ?? {}).toEqual({});
    expect(res.stored!.metadata.labels).toEqual({ a: 'b' });
  });

  test('/approval adds Approved with timestamps; the certificate stays as stored', async () => {
    const { stored } = await h.create(certificateSigningRequests, csr('a'));
    const res = await approval({ ...stored!, status: { conditions: [{ ...approved, status: undefined }], certificate: b64(CERTIFICATE_PEM) } });
    expect(res.errors).toEqual([]);
    const now = '2026-01-02T03:04:05Z';
    expect(res.object!.status).toEqual({ conditions: [{ ...approved, lastUpdateTime: now, lastTransitionTime: now }] });
  });

  test('/approval refuses Approved and Denied together, and removing a decision', async () => {
    const { stored } = await h.create(certificateSigningRequests, csr('a'));
    expect((await approval({ ...stored!, status: { conditions: [approved, denied] } })).errors).toEqual([
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
    ]);
    const first = await approval({ ...stored!, status: { conditions: [approved] } });
    expect((await approval({ ...first.object!, status: { conditions: [] } })).errors).toEqual([
      'status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
    ]);
  });

  test('/approval refuses a False decision and duplicates', async () => {
    const { stored } = await h.create(certificateSigningRequests, csr('a'));
    expect((await approval({ ...stored!, status: { conditions: [{ ...approved, status: 'False' }] } })).errors).toEqual([
      'status.conditions[0].status: Unsupported value: "False": supported values: "True"',
    ]);
    expect((await approval({ ...stored!, status: { conditions: [approved, approved] } })).errors).toEqual(['status.conditions[1].type: Duplicate value: "Approved"']);
  });

  test('/status sets the certificate once but may not approve', async () => {
    const { stored } = await h.create(certificateSigningRequests, csr('s'));
    const approvedObj = (await approval({ ...stored!, status: { conditions: [approved] } })).object!;
    const issued = await h.updateStatus(certificateSigningRequests, { ...approvedObj, status: { ...(approvedObj.status as object), certificate: b64(CERTIFICATE_PEM) } });
    expect(issued.errors).toEqual([]);
    expect((issued.stored!.status as { certificate: string }).certificate).toBe(b64(CERTIFICATE_PEM));
    const again = await h.updateStatus(certificateSigningRequests, { ...issued.stored!, status: { ...(issued.stored!.status as object), certificate: b64(CERTIFICATE_PEM + CERTIFICATE_PEM) } });
    expect(again.errors).toEqual(['status.certificate: Forbidden: updates may not modify existing certificate content']);

    const other = (await h.create(certificateSigningRequests, csr('s2'))).stored!;
    expect((await h.updateStatus(certificateSigningRequests, { ...other, status: { conditions: [approved] } })).errors).toEqual([
      'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
    ]);
    expect((await h.updateStatus(certificateSigningRequests, { ...other, status: { certificate: b64('not a cert') } })).errors).toEqual([
      'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block',
    ]);
  });

  test('table CONDITION: Pending, Approved, Denied, Issued; REQUESTEDDURATION', async () => {
    const pending = (await h.create(certificateSigningRequests, csr('p', { expirationSeconds: 3600 }))).stored!;
    const a = (await approval({ ...(await h.create(certificateSigningRequests, csr('a'))).stored!, status: { conditions: [approved] } })).object!;
    const d = (await approval({ ...(await h.create(certificateSigningRequests, csr('d'))).stored!, status: { conditions: [denied] } })).object!;
    const issued = (await h.updateStatus(certificateSigningRequests, { ...a, status: { ...(a.status as object), certificate: b64(CERTIFICATE_PEM) } })).stored!;
    const table = tableForList(
      { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequestList', metadata: {}, items: [pending, a, d, issued] },
      { table: certificateSigningRequests.table, version: 'v1', includeObject: 'None', type: { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest' }, now: new Date('2026-01-02T03:05:05Z') },
    );
    expect(table.columnDefinitions!.map((c) => c.name)).toEqual(['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['p', '60s', 'example.com/signer', '', '60m', 'Pending'],
      ['a', '60s', 'example.com/signer', '', '<none>', 'Approved'],
      ['d', '60s', 'example.com/signer', '', '<none>', 'Denied'],
      ['a', '60s', 'example.com/signer', '', '<none>', 'Approved,Issued'],
    ]);
  });
});

describe('over HTTP, as the requesting user', () => {
  test('spec.username and groups are the authenticated user, whatever the body said', async () => {
    const http = await createBuiltinHttpHarness();
    const res = await http.app.inject({
      method: 'POST',
      url: '/apis/certificates.k8s.io/v1/certificatesigningrequests',
      payload: csr('mine', { username: 'mallory', uid: 'x', groups: ['evil'], extra: { a: ['b'] } }) as object,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().spec).toEqual({ ...spec, username: ADMIN.username, groups: ADMIN.groups });
  });
});
