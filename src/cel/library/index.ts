// The Kubernetes libraries, in the order they are registered.
import type { CelLibrary } from './library.js';
import { listsLibrary } from './lists.js';
import { regexLibrary } from './regex.js';
import { stringsLibrary } from './strings.js';

export const KUBERNETES_LIBRARIES: readonly CelLibrary[] = [stringsLibrary, listsLibrary, regexLibrary];
