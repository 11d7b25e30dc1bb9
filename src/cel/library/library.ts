// The shape of a Kubernetes CEL library: a name, the functions it registers on
// the base environment, and the base-library function names whose semantics it
// replaces (calls to those are renamed to `kapi_<name>` before type checking,
// see rewrite.ts, because the base library's overloads cannot be unregistered).
import type { Environment } from '@marcbachmann/cel-js';

export interface CelLibrary {
  readonly name: string;
  readonly overrides?: readonly string[];
  register(env: Environment): void;
}
