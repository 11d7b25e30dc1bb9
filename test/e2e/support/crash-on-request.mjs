// Loaded into a spawned server with `node --import` by fatal-error.test.ts, never
// by kapi itself: a request carrying `x-kapi-test-crash: throw` (or `reject`)
// makes the process fail 300 ms later with a genuine uncaught exception (or
// unhandled rejection) while that request is still in flight, so the test can
// check the fatal log line names it. It listens on Node's own diagnostics
// channel for HTTP/1.1 server requests; nothing in src/ knows it exists.
import { subscribe } from 'node:diagnostics_channel';

subscribe('http.server.request.start', ({ request }) => {
  const mode = request.headers['x-kapi-test-crash'];
  if (mode === 'throw') {
    setTimeout(() => {
      throw new Error('injected by the test: crash while serving');
    }, 300);
  } else if (mode === 'reject') {
    setTimeout(() => {
      void Promise.reject(new Error('injected by the test: rejection nobody handles'));
    }, 300);
  }
});
