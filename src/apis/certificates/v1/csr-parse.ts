// PKCS#10 certificate requests as kube checks them: one PEM block of type
// CERTIFICATE REQUEST whose DER is a CertificationRequest (info, signature
// algorithm, signature) and whose signature verifies with the public key it
// carries. node:crypto parses keys but not requests, so the DER is walked here:
// only lengths and tags are read, every read is bounded by its parent, and any
// malformed input is an error string, never an exception.
import { createPublicKey, verify } from 'node:crypto';

interface Der {
  readonly tag: number;
  /** The content octets. */
  readonly body: Buffer;
  /** The whole element, tag and length included. */
  readonly raw: Buffer;
}

/** Reads one DER element at `at`; undefined when it does not fit. */
function readDer(buf: Buffer, at: number): Der | undefined {
  if (at + 2 > buf.length) return undefined;
  const tag = buf[at]!;
  let len = buf[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > buf.length) return undefined;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[start + i]!;
    start += n;
  }
  if (start + len > buf.length) return undefined;
  return { tag, body: buf.subarray(start, start + len), raw: buf.subarray(at, start + len) };
}

function children(el: Der): Der[] | undefined {
  const out: Der[] = [];
  let at = 0;
  while (at < el.body.length) {
    const c = readDer(el.body, at);
    if (c === undefined) return undefined;
    out.push(c);
    at += c.raw.length;
  }
  return out;
}

function oid(body: Buffer): string {
  if (body.length === 0) return '';
  const parts = [Math.floor(body[0]! / 40), body[0]! % 40];
  let v = 0;
  for (let i = 1; i < body.length; i++) {
    v = v * 128 + (body[i]! & 0x7f);
    if ((body[i]! & 0x80) === 0) {
      parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

/** Signature algorithms Go's x509 verifies for requests: the digest node needs (null: the key decides). */
const SIGNATURE_DIGESTS: Readonly<Record<string, string | null>> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.3.101.112': null,
};

const SEQUENCE = 0x30;
const BIT_STRING = 0x03;
const OBJECT_IDENTIFIER = 0x06;

export interface PemBlock {
  readonly type: string;
  readonly der: Buffer;
  /** The block carried `Key: value` headers. */
  readonly headers: boolean;
  /** The block's text, BEGIN to END lines. */
  readonly text: string;
}

const BEGIN = '-----BEGIN ';
const DASHES = '-----';

/**
 * The PEM blocks of a text, in order, as Go's pem.Decode finds them. One forward
 * scan with indexOf (no backtracking regular expression): a request body full of
 * BEGIN lines without END lines costs one pass, not one pass per line.
 */
export function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  let at = 0;
  for (;;) {
    const begin = text.indexOf(BEGIN, at);
    if (begin < 0) return blocks;
    const typeEnd = text.indexOf(DASHES, begin + BEGIN.length);
    if (typeEnd < 0) return blocks;
    const type = text.slice(begin + BEGIN.length, typeEnd);
    if (!/^[A-Z0-9 ]{1,64}$/.test(type)) {
      at = begin + BEGIN.length;
      continue;
    }
    const endLine = `-----END ${type}-----`;
    const end = text.indexOf(endLine, typeEnd + DASHES.length);
    if (end < 0) return blocks;
    const body = text.slice(typeEnd + DASHES.length, end);
    const headers = /^[^\s:]+:/m.test(body);
    const b64 = body.replace(/^[^\s:]+:.*$/gm, '').replace(/\s+/g, '');
    if (/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) {
      blocks.push({ type, der: Buffer.from(b64, 'base64'), headers, text: text.slice(begin, end + endLine.length) });
    }
    at = end + endLine.length;
  }
}

/** '' when the request is a well-formed, correctly signed PKCS#10 request; else kube's reason. */
export function checkCertificateRequest(pem: Buffer): string {
  const block = pemBlocks(pem.toString('latin1'))[0];
  if (block === undefined || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  const outer = readDer(block.der, 0);
  const parts = outer?.tag === SEQUENCE ? children(outer) : undefined;
  if (parts === undefined || parts.length !== 3) return 'asn1: structure error: malformed certificate request';
  const [info, algorithm, signature] = parts as [Der, Der, Der];
  const infoParts = info.tag === SEQUENCE ? children(info) : undefined;
  const algParts = algorithm.tag === SEQUENCE ? children(algorithm) : undefined;
  if (infoParts === undefined || infoParts.length < 3 || algParts === undefined || algParts.length < 1 || signature.tag !== BIT_STRING) {
    return 'asn1: structure error: malformed certificate request';
  }
  const spki = infoParts[2]!;
  if (spki.tag !== SEQUENCE || algParts[0]!.tag !== OBJECT_IDENTIFIER || signature.body.length < 1) {
    return 'asn1: structure error: malformed certificate request';
  }
  const algOid = oid(algParts[0]!.body);
  if (!Object.hasOwn(SIGNATURE_DIGESTS, algOid)) return 'x509: cannot verify signature: algorithm unimplemented';
  let key;
  try {
    key = createPublicKey({ key: spki.raw, format: 'der', type: 'spki' });
  } catch {
    return 'x509: unsupported public key';
  }
  // Go's texts for a signature that does not verify, by key type.
  const failure = key.asymmetricKeyType === 'rsa' ? 'crypto/rsa: verification error' : key.asymmetricKeyType === 'ec' ? 'x509: ECDSA verification failure' : 'x509: Ed25519 verification failure';
  try {
    return verify(SIGNATURE_DIGESTS[algOid] ?? null, info.raw, key, signature.body.subarray(1)) ? '' : failure;
  } catch {
    return failure;
  }
}
