// /livez, /readyz and /healthz like kube-apiserver: each a list of named checks,
// `?verbose` prints `[+]<name> ok` lines, `?exclude=<name>` skips checks, and
// /<endpoint>/<check> asks one. Failing checks answer 500 with `[-]<name> failed:
// reason withheld` (the reason goes to the log, not to anonymous callers).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface HealthCheck {
  readonly name: string;
  /** Resolves when healthy; rejects (with the reason) when not. */
  check(): Promise<void>;
}

export interface HealthEndpoints {
  readonly livez: readonly HealthCheck[];
  readonly readyz: readonly HealthCheck[];
  readonly healthz: readonly HealthCheck[];
}

export function checkOf(name: string, check: () => Promise<void> | void): HealthCheck {
  return { name, check: async () => check() };
}

interface CheckResult {
  readonly name: string;
  readonly error: unknown;
  readonly ok: boolean;
}

async function runChecks(checks: readonly HealthCheck[], timeoutMs: number): Promise<CheckResult[]> {
  return Promise.all(
    checks.map(async (c) => {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`check timed out after ${timeoutMs}ms`)), timeoutMs);
      });
      try {
        await Promise.race([c.check(), limit]);
        return { name: c.name, ok: true, error: undefined };
      } catch (error) {
        return { name: c.name, ok: false, error };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}

function asList(value: unknown): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

export function registerHealthRoutes(
  app: FastifyInstance,
  endpoints: HealthEndpoints,
  opts: { timeoutMs?: number } = {},
): void {
  const timeoutMs = opts.timeoutMs ?? 5000;
  for (const [endpoint, checks] of Object.entries(endpoints) as [keyof HealthEndpoints, readonly HealthCheck[]][]) {
    const handle = async (request: FastifyRequest, reply: FastifyReply, only?: string) => {
      const query = request.query as Record<string, unknown>;
      const excluded = new Set(asList(query.exclude));
      const selected = only === undefined ? checks.filter((c) => !excluded.has(c.name)) : checks.filter((c) => c.name === only);
      if (only !== undefined && selected.length === 0) {
        return reply.code(404).type('text/plain; charset=utf-8').send('404 page not found\n');
      }
      const results = await runChecks(selected, timeoutMs);
      const failed = results.filter((r) => !r.ok);
      for (const f of failed) request.log.warn({ check: f.name, err: f.error }, `${endpoint} check failed`);
      const verbose = query.verbose !== undefined || failed.length > 0;
      reply.type('text/plain; charset=utf-8').header('X-Content-Type-Options', 'nosniff');
      reply.code(failed.length === 0 ? 200 : 500);
      if (!verbose) return reply.send('ok');
      const lines = results.map((r) => (r.ok ? `[+]${r.name} ok` : `[-]${r.name} failed: reason withheld`));
      for (const name of excluded) if (checks.some((c) => c.name === name)) lines.push(`[+]${name} excluded: ok`);
      lines.push(failed.length === 0 ? `${endpoint} check passed` : `${endpoint} check failed`);
      return reply.send(`${lines.join('\n')}\n`);
    };
    app.get(`/${endpoint}`, (req, reply) => handle(req, reply));
    app.get(`/${endpoint}/:check`, (req, reply) => handle(req, reply, (req.params as { check: string }).check));
  }
}
