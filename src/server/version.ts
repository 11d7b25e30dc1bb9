// GET /version: the version.Info clients read. kubectl warns when its minor is more
// than one away from the server's, and some clients parse gitVersion as semver, so
// we advertise the Kubernetes release we are compatible with plus a +kapi suffix.
import type { FastifyInstance } from 'fastify';

export const KUBERNETES_MAJOR = '1';
export const KUBERNETES_MINOR = '36';

export interface BuildInfo {
  readonly gitCommit: string;
  readonly buildDate: string;
}

/** Go's GOOS/GOARCH spelling of this process's platform. */
function goPlatform(): string {
  const arch: Record<string, string> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' };
  return `${process.platform}/${arch[process.arch] ?? process.arch}`;
}

export function versionInfo(build: BuildInfo): Record<string, string> {
  return {
    major: KUBERNETES_MAJOR,
    minor: KUBERNETES_MINOR,
    emulationMajor: KUBERNETES_MAJOR,
    emulationMinor: KUBERNETES_MINOR,
    minCompatibilityMajor: KUBERNETES_MAJOR,
    minCompatibilityMinor: String(Number(KUBERNETES_MINOR) - 1),
    gitVersion: `v${KUBERNETES_MAJOR}.${KUBERNETES_MINOR}.0+kapi`,
    gitCommit: build.gitCommit,
    gitTreeState: 'clean',
    buildDate: build.buildDate,
    // There is no Go toolchain: say which runtime built and runs the server.
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: goPlatform(),
  };
}

export function registerVersionRoute(app: FastifyInstance, build: BuildInfo): void {
  const body = `${JSON.stringify(versionInfo(build), null, 2)}\n`;
  const handler = async (_req: unknown, reply: import('fastify').FastifyReply) =>
    reply.header('Content-Type', 'application/json').send(body);
  // The server ignores trailing slashes, so this also answers /version/.
  app.get('/version', handler);
}
