// The one place that loads @peculiar/x509. Its dependency tsyringe needs a Reflect
// metadata polyfill installed before it is evaluated, so the polyfill import must
// stay first; ESM evaluates side-effect imports in source order.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

// Node's WebCrypto: keys are generated and certificates signed without OpenSSL
// command-line tools, and the same provider verifies what it produced.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export { x509 };
export const subtle = webcrypto.subtle;
