// Which requests may outlive --request-timeout: watches and the streaming
// subresources, as kube-apiserver's long-running request predicate says. The
// timeout filter and nothing else reads this.
import type { RequestInfo } from '../endpoints/context.js';

const LONG_RUNNING_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy', 'log']);

export function isLongRunning(info: RequestInfo): boolean {
  if (!info.isResourceRequest) return false;
  return info.verb === 'watch' || info.verb === 'proxy' || LONG_RUNNING_SUBRESOURCES.has(info.subresource);
}
