// Kubernetes' URL library (k8s.io/apiserver/pkg/cel/library/urls.go): url()
// and isURL() accept what Go's url.ParseRequestURI accepts (an absolute URI or
// an absolute path); url() then keeps url.Parse's reading of the same string,
// because ParseRequestURI folds a fragment into the path or query. Accessors
// getScheme, getHost, getHostname, getPort, getEscapedPath, getQuery.
import { celError } from '../values.js';
import type { CelLibrary } from './library.js';
import { escapedPath, hostname, parseRequestURI, parseURL, port, query, GoURLError, type GoURL } from './go-url.js';

export const URL_TYPE = 'kubernetes.URL';

export class CelURL {
  constructor(readonly url: GoURL) {}
}

function toURL(s: string): CelURL {
  try {
    parseRequestURI(s);
    return new CelURL(parseURL(s));
  } catch (err) {
    if (err instanceof GoURLError) throw celError(`URL parse error during conversion from string: ${err.message}`);
    throw err;
  }
}

function isURL(s: string): boolean {
  try {
    parseRequestURI(s);
    return true;
  } catch (err) {
    if (err instanceof GoURLError) return false;
    throw err;
  }
}

/** Two URLs are equal when every parsed part is (apiserver/pkg/cel/url.go compares the url.URL values). */
function urlEqual(a: CelURL, b: CelURL): boolean {
  const x = a.url;
  const y = b.url;
  return (Object.keys(x) as (keyof GoURL)[]).every((k) => x[k] === y[k]);
}

export const urlsLibrary: CelLibrary = {
  name: 'kubernetes.urls',
  register(env) {
    const fn = (sig: string, h: (...args: never[]) => unknown): void => void env.registerFunction(sig, h);
    const U = URL_TYPE;
    env.registerType(U, CelURL);
    fn(`url(string): ${U}`, toURL);
    fn('isURL(string): bool', isURL);
    fn(`${U}.getScheme(): string`, (u: CelURL) => u.url.scheme);
    fn(`${U}.getHost(): string`, (u: CelURL) => u.url.host);
    fn(`${U}.getHostname(): string`, (u: CelURL) => hostname(u.url));
    fn(`${U}.getPort(): string`, (u: CelURL) => port(u.url));
    fn(`${U}.getEscapedPath(): string`, (u: CelURL) => escapedPath(u.url));
    fn(`${U}.getQuery(): map<string, list<string>>`, (u: CelURL) => query(u.url));
    env.registerOperator(`${U} == ${U}`, urlEqual);
  },
};
