// STYLE.md §1 as lint: the layout is the request flow, and imports only point down
// it. `npm run lint:deps` (part of `npm test`) cruises src/ with these rules; a
// layering mistake fails CI, not review. test/lint/layering.test.ts proves the rules
// fire (test/lint/fixtures/upward: an upward import, a type-only one, a cycle).
// `--output-type err-long` prints each rule's one line of why with the violation.
//
// The layer order, top to bottom. A layer may import only the layers it lists in
// `may`; siblings at one level do not import each other. Type-only imports count:
// a type names the layer it lives in just as a value does.
//
//   main.ts                              the only composition root
//   server/                              Fastify assembly; builds backends from options
//   controllers/                         in-process API clients of the built-in kinds
//   endpoints/  apis/                    HTTP <-> registry | built-in groups (definitions)
//   registry/                            generic store, strategies, definitions
//   auth/  admission/  storage/          beside/below registry, never above it
//   patch/  cel/                         pure engines over objects and schemas
//   codecs/                              bytes <-> objects
//   errors/                              StatusError, StorageError, field errors
//   schema/                              API vocabulary: GVK/GVR, objects, UserInfo, Verb, Scope
//   features/                            --feature-gates: the gates in force, passed down from main.ts
//   generated/                           generated data (OpenAPI, proto); imports nothing
//
// Inside storage/: etcd/, sqlite/ and memory/ import only kv.ts and errors/; only
// main.ts and server/ see past storage.ts and kv.ts; testing/ is for test/ alone.
// Outside the rules: test/, bench/, fuzz/, scripts/ (src/ never imports them).
//
// Shared types (UserInfo, Verb, Scope) live in schema/ (user.ts, api-resource.ts),
// not a new types/ folder: they are API vocabulary (authentication/v1 UserInfo,
// metav1.APIResource's verbs and namespaced), which is what schema/ already holds
// (GVK/GVR, ObjectMeta), and every layer that needs them may already import schema/.
//
// Not here yet: apply/ (server-side apply) goes beside patch/; crd/ beside apis/
// (it produces definitions for the registry). Until a folder is placed here it may
// not import anything of ours (rule `layer-unknown`).

/** One src/ folder as a path pattern. */
const dir = (name) => `^src/${name}/`;

// What layers above storage/ may see of it; only main.ts and server/ (the
// composition) import backends and the object store.
const STORAGE_CONTRACTS = '^src/storage/(storage|kv)\\.ts$';
// storage/ without its backends and conformance suites: storage.ts, kv.ts,
// object-store(.ts|/), continue-token.ts, cacher/ when it comes.
const STORAGE_CORE = '^src/storage/(?!(etcd|sqlite|memory|testing)/)';

const layers = [
  {
    name: 'main',
    path: '^src/main\\.ts$',
    may: ['^src/'],
    why: 'main.ts composes everything; nothing imports it',
  },
  {
    name: 'cli',
    path: dir('cli'),
    may: [],
    why: 'subcommands of the kapi binary (bin/kapi.js dispatches to them before the server loads) are API clients over HTTPS: they import nothing of the server',
  },
  {
    name: 'server',
    path: dir('server'),
    may: ['controllers', 'endpoints', 'apis', 'registry', 'auth', 'admission', 'storage', 'patch', 'cel', 'codecs', 'errors', 'schema', 'features', 'generated'].map(dir),
    why: 'top of the flow: server -> endpoints -> registry -> storage; it picks the storage backend from options',
  },
  {
    name: 'controllers',
    path: dir('controllers'),
    may: [...['apis', 'registry', 'patch', 'cel', 'codecs', 'errors', 'schema', 'features', 'generated'].map(dir), STORAGE_CONTRACTS],
    why: 'controllers are in-process clients: they read the kinds they drive (apis/) and call the registry, never the transport',
  },
  {
    name: 'endpoints',
    path: dir('endpoints'),
    may: [...['registry', 'patch', 'cel', 'codecs', 'errors', 'schema', 'features', 'generated'].map(dir), STORAGE_CONTRACTS],
    why: 'HTTP <-> registry; generic, so no built-in group (apis/); authn/authz are server filters (§2) and admission runs inside the registry',
  },
  {
    name: 'apis',
    path: dir('apis'),
    may: [...['registry', 'auth', 'admission', 'patch', 'cel', 'codecs', 'errors', 'schema', 'features', 'generated'].map(dir), STORAGE_CONTRACTS],
    why: 'STYLE §1: apis/ uses registry/ and schema/ (review kinds also use auth/), never endpoints/ or server/',
  },
  {
    name: 'registry',
    path: dir('registry'),
    may: [...['admission', 'patch', 'cel', 'codecs', 'errors', 'schema', 'features', 'generated'].map(dir), STORAGE_CONTRACTS],
    why: 'registry -> storage, and it calls the admission chain in its write steps; it sees users as schema/user.ts, not through auth/',
  },
  {
    name: 'auth',
    path: dir('auth'),
    may: [...['cel', 'codecs', 'errors', 'schema', 'features', 'generated'].map(dir), STORAGE_CONTRACTS],
    why: 'authn/authz run in server filters before any registry work; UserInfo and Verb come from schema/, which registry/ shares; the RBAC and Node authorizers keep their indexes from watches through the Storage contract alone',
  },
  {
    name: 'admission',
    path: dir('admission'),
    may: ['patch', 'cel', 'codecs', 'errors', 'schema', 'features', 'generated'].map(dir),
    why: 'the registry calls admission, so admission may not call back up; lookups reach it as interfaces (AdmissionLookup)',
  },
  {
    name: 'storage',
    path: STORAGE_CORE,
    may: ['codecs', 'errors', 'schema', 'features', 'generated'].map(dir),
    why: 'STYLE §1: storage/ imports nothing above it, and its contract does not know its backends or test suites',
  },
  {
    name: 'storage-backends',
    path: '^src/storage/(etcd|sqlite|memory)/',
    self: '^src/storage/$1/', // its own folder, not another backend's
    may: ['^src/storage/kv\\.ts$', dir('errors')],
    why: 'STYLE §1: etcd/ and sqlite/ (and memory/, the same kind of backend) import only kv.ts and errors/',
  },
  {
    name: 'storage-testing',
    path: dir('storage/testing'),
    may: [STORAGE_CORE, ...['codecs', 'errors', 'schema', 'generated'].map(dir)],
    why: 'conformance suites run against the contracts; test/ hands them a backend',
  },
  {
    name: 'patch',
    path: dir('patch'),
    may: ['codecs', 'errors', 'schema', 'generated'].map(dir),
    why: 'patch engines work on decoded objects (codecs/ for the depth bound) and know nothing of requests',
  },
  {
    name: 'cel',
    path: dir('cel'),
    may: ['schema', 'generated'].map(dir),
    why: 'CEL is standalone: its environment reads structural schemas and quantities, nothing of the request flow',
  },
  {
    name: 'codecs',
    path: dir('codecs'),
    may: ['errors', 'schema', 'generated'].map(dir),
    why: 'bytes <-> objects; a decode failure is a StatusError',
  },
  {
    name: 'errors',
    path: dir('errors'),
    may: ['schema', 'generated'].map(dir),
    why: 'a Status names schema types (GroupResource), as apimachinery/pkg/api/errors imports metav1; nothing else',
  },
  {
    name: 'schema',
    path: dir('schema'),
    may: [dir('generated')],
    why: 'the API vocabulary everyone shares (objects, GVK, UserInfo, Verb, Scope) over the generated OpenAPI',
  },
  {
    name: 'features',
    path: dir('features'),
    may: [dir('generated')],
    why: 'feature gates are a value built once in main.ts and passed down (STYLE §10: no hidden globals); they read only the generated gate table, so every layer may take one',
  },
  {
    name: 'generated',
    path: dir('generated'),
    may: [],
    why: 'generated data and code import nothing of ours (npm run generate rewrites it)',
  },
];

const placed = layers.map((l) => `(${l.path})`).join('|');

// Each src/ file is in exactly one layer (STORAGE_CORE leaves out the backends and
// testing/), so one rule per layer: an import of ours outside its own layer and
// `may` is an error.
const layerRules = layers.map((l) => ({
  name: `layer-${l.name}`,
  comment: l.why,
  severity: 'error',
  from: { path: l.path },
  to: { path: '^src/', pathNot: [l.self ?? l.path, ...l.may] },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'layer-unknown',
      comment: 'a new src/ folder gets a place in the layer order above before it imports anything of ours',
      severity: 'error',
      from: { path: '^src/', pathNot: placed },
      to: { path: '^src/' },
    },
    {
      name: 'no-circular',
      comment: 'a cycle has no "down"; split the shared part into the lower file',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-test-code-in-src',
      comment: 'tests, benchmarks, fuzzers and scripts sit outside the flow; src/ never imports them',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|fuzz|scripts)/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'an import the cruiser cannot resolve is one the rules cannot check',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports are layering too (UserInfo was one).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Our sources import './x.js' for './x.ts' (NodeNext); packages use "exports".
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'types', 'default'],
      extensions: ['.ts', '.js', '.json', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
