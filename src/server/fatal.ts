// What happens when the process must die: an uncaught exception or an unhandled
// rejection (a bug) writes one log line naming the error and the requests in
// flight at that moment — the likeliest culprits — and exits 1; so does a second
// SIGTERM/SIGINT while shutting down (kube-apiserver exits on the second signal
// too). The log destination is asynchronous, so the line is flushed
// synchronously before exit: a crash must not eat the line that explains it.
import type { Logger } from 'pino';
import type { InFlightSummary } from './in-flight.js';

export interface FatalOptions {
  readonly logger: Logger;
  /** Writes out everything logged so far, synchronously. */
  readonly flushSync: () => void;
  /** The requests in flight now; empty before the server listens. */
  readonly inFlight: () => { readonly requests: readonly InFlightSummary[]; readonly total: number };
  /** Injected in tests; defaults to process.exit. */
  readonly exit?: (code: number) => never;
}

/** Logs one fatal line and exits 1. Never throws: it is the last thing that runs. */
export function dieWith(opts: FatalOptions, fields: Record<string, unknown>, msg: string): never {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  try {
    let inFlight: ReturnType<FatalOptions['inFlight']> = { requests: [], total: 0 };
    try {
      inFlight = opts.inFlight();
    } catch {
      // The tracker itself may be what broke; the error is still worth its line.
    }
    opts.logger.fatal({ ...fields, inFlight: inFlight.requests, inFlightTotal: inFlight.total }, msg);
    opts.flushSync();
  } catch (err) {
    // The logger is broken: stderr, synchronously, is all that is left.
    process.stderr.write(`kapi: ${msg}: ${String(fields.err)} (logging failed: ${String(err)})\n`);
  }
  return exit(1);
}

export function installFatalHandlers(opts: FatalOptions): void {
  process.on('uncaughtException', (err, origin) => {
    dieWith(opts, { err, origin }, 'fatal error: exiting');
  });
  // Without a handler Node turns these into uncaughtException already; the
  // handler keeps the origin visible in the line.
  process.on('unhandledRejection', (reason) => {
    dieWith(opts, { err: reason, origin: 'unhandledRejection' }, 'fatal error: exiting');
  });
}
