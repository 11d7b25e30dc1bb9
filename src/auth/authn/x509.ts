// x509 client-certificate authentication (kube's --client-ca-file): the verified
// leaf's CN is the user name, each O a group, and a subject attribute
// 1.3.6.1.4.1.57683.2 the uid (kube 1.33+). The TLS server only requests a
// certificate, so an absent one is "no credentials" (undefined) and a present
// one that fails verification is an AuthenticationError (401 unless another
// authenticator accepts the request).
import { createHash, type X509Certificate } from 'node:crypto';
import type { UserInfo } from '../../schema/user.js';
import { AuthenticationError, CREDENTIAL_ID_KEY, type Authenticator } from './authenticator.js';
import { verifyClientChain, type VerifiedChain } from './verify-chain.js';

export interface X509AuthenticatorOptions {
  /** The client CA bundle's certificates (`--client-ca-file`, or the generated CA). */
  readonly roots: readonly X509Certificate[];
  readonly clock?: () => Date;
}

interface Verified {
  readonly verified: VerifiedChain;
  readonly user: UserInfo | undefined;
}

/** node:crypto's legacy subject object: one string per attribute, an array when repeated. */
function values(field: string | string[] | undefined): string[] {
  if (field === undefined) return [];
  return Array.isArray(field) ? field : [field];
}

/** The subject attribute holding the user's uid (kube's asn1util.X509UID; AllowParsingUserUIDFromCertAuth, on since 1.33). */
const UID_OID = '1.3.6.1.4.1.57683.2';

/**
 * CommonNameUserConversion: no CN means "not a user certificate" (no answer, not
 * an error). The credential id lets audit and `kubectl auth whoami` tell two
 * certificates of the same user apart. A uid attribute names the user's uid;
 * several, or an empty one, refuse the certificate as kube does.
 */
function userOf(leaf: X509Certificate): UserInfo | undefined {
  const subject = leaf.toLegacyObject().subject as unknown as Record<string, string | string[] | undefined>;
  const commonNames = values(subject['CN']);
  // Go's pkix.Name keeps the last CN when there are several.
  const username = commonNames[commonNames.length - 1];
  if (username === undefined || username === '') return undefined;
  const uids = Object.hasOwn(subject, UID_OID) ? values(subject[UID_OID]) : [];
  if (uids.length > 1) throw new AuthenticationError(`expected 1 UID, but found multiple: [${uids.join(' ')}]`);
  if (uids.length === 1 && uids[0] === '') throw new AuthenticationError('UID cannot be an empty string');
  const id = `X509SHA256=${createHash('sha256').update(leaf.raw).digest('hex')}`;
  return { username, ...(uids.length === 1 ? { uid: uids[0]! } : {}), groups: values(subject['O']), extra: { [CREDENTIAL_ID_KEY]: [id] } };
}

export function createX509Authenticator(opts: X509AuthenticatorOptions): Authenticator {
  const clock = opts.clock ?? (() => new Date());
  // A connection's certificate objects are reused for every request on it (see
  // peerCertificateOf), so one signature check per connection, not per request.
  // Only successes are kept, and only for the chain's validity window.
  const cache = new WeakMap<X509Certificate, Verified>();
  return async (req) => {
    const presented = req.peerCertificateChain ?? [];
    const leaf = presented[0];
    if (leaf === undefined) return undefined;
    const now = clock();
    let entry = cache.get(leaf);
    if (entry === undefined || now < entry.verified.notBefore || now > entry.verified.notAfter) {
      let verified: VerifiedChain;
      try {
        verified = verifyClientChain({ leaf, intermediates: presented.slice(1), roots: opts.roots, now });
      } catch (err) {
        if (!(err instanceof AuthenticationError)) throw err;
        throw new AuthenticationError(`verifying certificate SN=${leaf.serialNumber} failed: ${err.message}`);
      }
      // Only a certificate that converts to a user (or to none) is remembered; a refused one is judged again.
      entry = { verified, user: userOf(leaf) };
      cache.set(leaf, entry);
    }
    return entry.user === undefined ? undefined : { user: entry.user };
  };
}
