// --authentication-config files (auth/authn/authentication-config*.ts): every
// decode and validation rule of kube-apiserver's AuthenticationConfiguration, each
// as a row with the exact start error line kube prints for it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AuthenticationConfigError, checkAuthenticationConfig, loadAuthenticationConfig, MAX_AUTHENTICATION_CONFIG_BYTES } from '../../src/auth/authn/authentication-config-file.js';

const SA_ISSUER = 'https://kubernetes.default.svc.cluster.local';

type Jwt = Record<string, unknown>;

function jwt(over: { issuer?: Record<string, unknown>; claimMappings?: Record<string, unknown>; rest?: Record<string, unknown> } = {}): Jwt {
  return {
    issuer: { url: 'https://issuer.example', audiences: ['kapi'], ...over.issuer },
    claimMappings: { username: { claim: 'sub', prefix: '' }, ...over.claimMappings },
    ...over.rest,
  };
}

function file(body: Record<string, unknown>, apiVersion = 'apiserver.config.k8s.io/v1'): string {
  return JSON.stringify({ apiVersion, kind: 'AuthenticationConfiguration', ...body });
}

function problem(text: string | Buffer): string {
  try {
    checkAuthenticationConfig(Buffer.isBuffer(text) ? text : Buffer.from(text), { disallowedIssuers: [SA_ISSUER] });
  } catch (err) {
    if (err instanceof AuthenticationConfigError) return err.message;
    throw err;
  }
  return 'accepted';
}

const INVALID = 'invalid authentication configuration: ';

describe('accepted', () => {
  const cases: { name: string; text: string }[] = [
    { name: 'no authenticators at all (v1)', text: file({ jwt: [] }) },
    { name: 'v1beta1', text: file({ jwt: [jwt()] }, 'apiserver.config.k8s.io/v1beta1') },
    { name: 'v1alpha1', text: file({ jwt: [jwt()] }, 'apiserver.config.k8s.io/v1alpha1') },
    {
      name: 'YAML with every field',
      text: `apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://issuer.example/path
    discoveryURL: https://discovery.example/.well-known/openid-configuration
    audiences: [a, b]
    audienceMatchPolicy: MatchAny
    egressSelectorType: controlplane
  claimValidationRules:
  - claim: hd
    requiredValue: example.com
  - expression: "claims.?email_verified.orValue(true) == true"
    message: email must be verified
  claimMappings:
    username:
      expression: "claims.email"
    groups:
      claim: groups
      prefix: "oidc:"
    uid:
      expression: "claims.sub"
    extra:
    - key: example.com/tenant
      valueExpression: "claims.tenant"
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: no system names
anonymous:
  enabled: true
  conditions:
  - path: /livez
`,
    },
  ];
  for (const c of cases) test(c.name, () => expect(problem(c.text)).toBe('accepted'));
});

describe('refused: decoding (kube strict decoder)', () => {
  const cases: { name: string; text: string; want: string }[] = [
    { name: 'an empty file', text: '', want: 'empty config data' },
    { name: 'no kind', text: JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', jwt: [] }), want: `Object 'Kind' is missing in '{"apiVersion":"apiserver.config.k8s.io/v1","jwt":[]}'` },
    { name: 'no apiVersion', text: 'kind: AuthenticationConfiguration\n', want: `Object 'apiVersion' is missing in '{"kind":"AuthenticationConfiguration"}'` },
    {
      name: 'an unknown version',
      text: file({}, 'apiserver.config.k8s.io/v2'),
      want: 'no kind "AuthenticationConfiguration" is registered for version "apiserver.config.k8s.io/v2" in scheme "pkg/kubeapiserver/options/authentication.go"',
    },
    { name: 'another kind of the group', text: JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration' }), want: 'expected AuthenticationConfiguration, got *apiserver.AuthorizationConfiguration' },
    { name: 'an unknown field', text: file({ jwt: [jwt({ issuer: { foo: 1 } })] }), want: 'strict decoding error: unknown field "jwt[0].issuer.foo"' },
    { name: 'a __proto__ field is an unknown field, never a prototype', text: `${file({ jwt: [] }).slice(0, -1)},"__proto__":{"jwt":[1]}}`, want: 'strict decoding error: unknown field "__proto__"' },
    { name: 'a duplicate field (JSON)', text: `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"AuthenticationConfiguration","jwt":[],"jwt":[]}`, want: 'strict decoding error: duplicate field "jwt"' },
    {
      name: 'a duplicate key (YAML)',
      text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt: []\njwt: []\n',
      want: 'strict decoding error: yaml: unmarshal errors: line 4: key "jwt" already set in map',
    },
    { name: 'a wrong type', text: file({ jwt: [jwt({ issuer: { audiences: 'kapi' } })] }), want: 'json: cannot unmarshal string into Go struct field Issuer.jwt.issuer.audiences of type []string' },
    { name: 'a number where a string goes', text: file({ jwt: [jwt({ issuer: { url: 5 } })] }), want: 'json: cannot unmarshal number into Go struct field Issuer.jwt.issuer.url of type string' },
    { name: 'anonymous.enabled not a bool', text: file({ anonymous: { enabled: 'yes' } }), want: 'json: cannot unmarshal string into Go struct field AnonymousAuthConfig.anonymous.enabled of type bool' },
    { name: 'broken YAML', text: 'kind: [\n', want: 'error converting YAML to JSON: yaml: ' },
    { name: 'deeply nested YAML', text: `kind: AuthenticationConfiguration\napiVersion: apiserver.config.k8s.io/v1\nx: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`, want: 'error converting YAML to JSON: yaml: exceeded max depth of 1000' },
    { name: 'deeply nested JSON', text: `{"kind":"AuthenticationConfiguration","x":${'['.repeat(20_000)}${']'.repeat(20_000)}}`, want: "couldn't get version/kind; json parse error: " },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = problem(c.text);
      if (c.name.startsWith('deeply nested JSON') || c.name === 'broken YAML') expect(got.startsWith(c.want), got).toBe(true);
      else expect(got).toBe(c.want);
      expect(got).not.toContain('\n');
    });
  }
});

describe('refused: validation (kube ValidateAuthenticationConfiguration)', () => {
  const cases: { name: string; jwt?: Jwt[]; anonymous?: unknown; want: string }[] = [
    { name: 'too many authenticators', jwt: Array.from({ length: 65 }, (_, i) => jwt({ issuer: { url: `https://i${i}.example` } })), want: 'jwt: Too many: 65: must have at most 64 items' },
    { name: 'no issuer url', jwt: [jwt({ issuer: { url: '' } })], want: 'jwt[0].issuer.url: Required value' },
    { name: 'http issuer', jwt: [jwt({ issuer: { url: 'http://issuer.example' } })], want: 'jwt[0].issuer.url: Invalid value: "http://issuer.example": URL scheme must be https' },
    { name: 'issuer with user info', jwt: [jwt({ issuer: { url: 'https://u:p@issuer.example' } })], want: 'jwt[0].issuer.url: Invalid value: "https://u:p@issuer.example": URL must not contain a username or password' },
    { name: 'issuer with a host that does not parse', jwt: [jwt({ issuer: { url: 'https://[::1' } })], want: 'jwt[0].issuer.url: Invalid value: "https://[::1": parse "https://[::1": invalid URL' },
    { name: 'issuer without a scheme', jwt: [jwt({ issuer: { url: 'issuer.example' } })], want: 'jwt[0].issuer.url: Invalid value: "issuer.example": URL scheme must be https' },
    { name: 'issuer with a control character', jwt: [jwt({ issuer: { url: 'https://x\n' } })], want: 'jwt[0].issuer.url: Invalid value: "https://x\\n": parse "https://x\\n": net/url: invalid control character in URL' },
    { name: 'issuer with a query', jwt: [jwt({ issuer: { url: 'https://issuer.example?a=b' } })], want: 'jwt[0].issuer.url: Invalid value: "https://issuer.example?a=b": URL must not contain a query' },
    { name: 'issuer with a fragment', jwt: [jwt({ issuer: { url: 'https://issuer.example#x' } })], want: 'jwt[0].issuer.url: Invalid value: "https://issuer.example#x": URL must not contain a fragment' },
    {
      name: 'the service-account issuer',
      jwt: [jwt({ issuer: { url: SA_ISSUER } })],
      want: `jwt[0].issuer.url: Invalid value: "${SA_ISSUER}": URL must not overlap with disallowed issuers: [${SA_ISSUER}]`,
    },
    {
      name: 'discoveryURL equal to url',
      jwt: [jwt({ issuer: { discoveryURL: 'https://issuer.example/' } })],
      want: 'jwt[0].issuer.discoveryURL: Invalid value: "https://issuer.example/": discoveryURL must be different from URL',
    },
    { name: 'no audiences', jwt: [jwt({ issuer: { audiences: [] } })], want: 'jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required' },
    { name: 'an empty audience', jwt: [jwt({ issuer: { audiences: [''] } })], want: 'jwt[0].issuer.audiences[0]: Required value' },
    {
      name: 'duplicate audiences',
      jwt: [jwt({ issuer: { audiences: ['a', 'a'], audienceMatchPolicy: 'MatchAny' } })],
      want: 'jwt[0].issuer.audiences[1]: Duplicate value: "a"',
    },
    {
      name: 'two audiences without MatchAny',
      jwt: [jwt({ issuer: { audiences: ['a', 'b'] } })],
      want: 'jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences',
    },
    {
      name: 'an unknown match policy',
      jwt: [jwt({ issuer: { audienceMatchPolicy: 'MatchAll' } })],
      want: 'jwt[0].issuer.audienceMatchPolicy: Invalid value: "MatchAll": audienceMatchPolicy must be empty or MatchAny for single audience',
    },
    {
      name: 'a CA without certificates',
      jwt: [jwt({ issuer: { certificateAuthority: 'not a pem' } })],
      want: 'jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates',
    },
    {
      name: 'an unknown egress selector',
      jwt: [jwt({ issuer: { egressSelectorType: 'etcd' } })],
      want: 'jwt[0].issuer.egressSelectorType: Invalid value: "etcd": egress selector must be either controlplane or cluster',
    },
    {
      name: 'duplicate issuers',
      jwt: [jwt(), jwt()],
      want: 'jwt[1].issuer.url: Duplicate value: "https://issuer.example"',
    },
    {
      name: 'duplicate discovery URLs',
      jwt: [jwt({ issuer: { discoveryURL: 'https://d.example' } }), jwt({ issuer: { url: 'https://other.example', discoveryURL: 'https://d.example' } })],
      want: 'jwt[1].issuer.discoveryURL: Duplicate value: "https://d.example"',
    },
    { name: 'claim rule with both', jwt: [jwt({ rest: { claimValidationRules: [{ claim: 'hd', expression: 'true' }] } })], want: `jwt[0].claimValidationRules[0]: Invalid value: "hd": claim and expression can't both be set` },
    { name: 'claim rule with neither', jwt: [jwt({ rest: { claimValidationRules: [{}] } })], want: 'jwt[0].claimValidationRules[0]: Required value: claim or expression is required' },
    {
      name: 'claim rule with a message',
      jwt: [jwt({ rest: { claimValidationRules: [{ claim: 'hd', message: 'm' }] } })],
      want: 'jwt[0].claimValidationRules[0].message: Invalid value: "m": may not be specified when claim is set',
    },
    {
      name: 'duplicate claim rules',
      jwt: [jwt({ rest: { claimValidationRules: [{ claim: 'hd' }, { claim: 'hd' }] } })],
      want: 'jwt[0].claimValidationRules[1].claim: Duplicate value: "hd"',
    },
    {
      name: 'expression rule with a required value',
      jwt: [jwt({ rest: { claimValidationRules: [{ expression: 'true', requiredValue: 'x' }] } })],
      want: 'jwt[0].claimValidationRules[0].requiredValue: Invalid value: "x": may not be specified when expression is set',
    },
    {
      name: 'duplicate expression rules',
      jwt: [jwt({ rest: { claimValidationRules: [{ expression: 'true' }, { expression: 'true' }] } })],
      want: 'jwt[0].claimValidationRules[1].expression: Duplicate value: "true"',
    },
    {
      name: 'a claim rule that is not bool (dyn is not bool)',
      jwt: [jwt({ rest: { claimValidationRules: [{ expression: 'claims.admin' }] } })],
      want: 'jwt[0].claimValidationRules[0].expression: Invalid value: "claims.admin": must evaluate to bool',
    },
    {
      name: 'a claim rule that does not compile',
      jwt: [jwt({ rest: { claimValidationRules: [{ expression: 'claims.a +' }] } })],
      want: 'jwt[0].claimValidationRules[0].expression: Invalid value: "claims.a +": compilation failed: Unexpected token: EOF (at 1:11)',
    },
    {
      name: 'an undeclared variable',
      jwt: [jwt({ rest: { claimValidationRules: [{ expression: 'user.username == "a"' }] } })],
      want: 'jwt[0].claimValidationRules[0].expression: Invalid value: "user.username == \\"a\\"": compilation failed: Unknown variable: user (at 1:1)',
    },
    { name: 'no username mapping', jwt: [jwt({ claimMappings: { username: {} } })], want: 'jwt[0].claimMappings.username: Required value: claim or expression is required' },
    { name: 'username claim and expression', jwt: [jwt({ claimMappings: { username: { claim: 'sub', expression: 'claims.sub' } } })], want: `jwt[0].claimMappings.username: Invalid value: "": claim and expression can't both be set` },
    {
      name: 'username claim without prefix',
      jwt: [jwt({ claimMappings: { username: { claim: 'sub' } } })],
      want: 'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    },
    {
      name: 'username expression with a prefix',
      jwt: [jwt({ claimMappings: { username: { expression: 'claims.sub', prefix: 'p:' } } })],
      want: 'jwt[0].claimMappings.username.prefix: Invalid value: "p:": may not be specified when expression is set',
    },
    {
      name: 'claims.email without claims.email_verified',
      jwt: [jwt({ claimMappings: { username: { expression: 'claims.email' } } })],
      want: 'jwt[0].claimMappings.username.expression: Invalid value: "claims.email": claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
    },
    {
      name: 'groups claim without prefix',
      jwt: [jwt({ claimMappings: { groups: { claim: 'groups' } } })],
      want: 'jwt[0].claimMappings.groups.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    },
    { name: 'uid claim and expression', jwt: [jwt({ claimMappings: { uid: { claim: 'sub', expression: 'claims.sub' } } })], want: `jwt[0].claimMappings.uid: Invalid value: "": claim and expression can't both be set` },
    {
      name: 'uid expression that does not compile',
      jwt: [jwt({ claimMappings: { uid: { expression: ')' } } })],
      want: 'jwt[0].claimMappings.uid.expression: Invalid value: ")": compilation failed: Unexpected token: RPAREN (at 1:1)',
    },
    { name: 'extra without key', jwt: [jwt({ claimMappings: { extra: [{ valueExpression: '"a"' }] } })], want: 'jwt[0].claimMappings.extra[0].key: Required value' },
    {
      name: 'extra key not domain-prefixed',
      jwt: [jwt({ claimMappings: { extra: [{ key: 'foo', valueExpression: '"a"' }] } })],
      want: 'jwt[0].claimMappings.extra[0].key: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo")',
    },
    {
      name: 'extra key not lowercase',
      jwt: [jwt({ claimMappings: { extra: [{ key: 'example.com/Foo', valueExpression: '"a"' }] } })],
      want: 'jwt[0].claimMappings.extra[0].key: Invalid value: "example.com/Foo": must be lowercase',
    },
    {
      name: 'extra key of kubernetes.io',
      jwt: [jwt({ claimMappings: { extra: [{ key: 'authentication.kubernetes.io/x', valueExpression: '"a"' }] } })],
      want: 'jwt[0].claimMappings.extra[0].key: Invalid value: "authentication.kubernetes.io/x": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use',
    },
    {
      name: 'duplicate extra keys',
      jwt: [jwt({ claimMappings: { extra: [{ key: 'example.com/a', valueExpression: '"a"' }, { key: 'example.com/a', valueExpression: '"b"' }] } })],
      want: 'jwt[0].claimMappings.extra[1].key: Duplicate value: "example.com/a"',
    },
    { name: 'extra without valueExpression', jwt: [jwt({ claimMappings: { extra: [{ key: 'example.com/a' }] } })], want: 'jwt[0].claimMappings.extra[0].valueExpression: Required value' },
    { name: 'user rule without expression', jwt: [jwt({ rest: { userValidationRules: [{ message: 'm' }] } })], want: 'jwt[0].userValidationRules[0].expression: Required value' },
    {
      name: 'user rule that is not bool',
      jwt: [jwt({ rest: { userValidationRules: [{ expression: 'user.username' }] } })],
      want: 'jwt[0].userValidationRules[0].expression: Invalid value: "user.username": must evaluate to bool',
    },
    {
      name: 'user rule reading claims',
      jwt: [jwt({ rest: { userValidationRules: [{ expression: 'claims.sub == "x"' }] } })],
      want: 'jwt[0].userValidationRules[0].expression: Invalid value: "claims.sub == \\"x\\"": compilation failed: Unknown variable: claims (at 1:1)',
    },
    {
      name: 'duplicate user rules',
      jwt: [jwt({ rest: { userValidationRules: [{ expression: 'true' }, { expression: 'true' }] } })],
      want: 'jwt[0].userValidationRules[1].expression: Duplicate value: "true"',
    },
    {
      name: 'anonymous conditions while disabled',
      anonymous: { enabled: false, conditions: [{ path: '/livez' }] },
      want: 'anonymous.conditions: Invalid value: []apiserver.AnonymousAuthCondition{apiserver.AnonymousAuthCondition{Path:"/livez"}}: enabled should be set to true when conditions are defined',
    },
    {
      name: 'several problems are one aggregate line',
      jwt: [jwt({ issuer: { url: 'http://x', audiences: [] } })],
      want: '[jwt[0].issuer.url: Invalid value: "http://x": URL scheme must be https, jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required]',
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const body: Record<string, unknown> = { jwt: c.jwt ?? [] };
      if (c.anonymous !== undefined) body.anonymous = c.anonymous;
      expect(problem(file(body))).toBe(`${INVALID}${c.want}`);
    });
  }
});

describe('hostile expressions stop the start with one line', () => {
  const cases: { name: string; expression: string; want: RegExp }[] = [
    { name: 'nested past the parser limit', expression: `${'('.repeat(300)}true${')'.repeat(300)}`, want: /compilation failed: (max recursion depth exceeded|Exceeded maxDepth \(250\))/ },
    { name: 'deep unary chain', expression: `${'!'.repeat(5000)}true`, want: /compilation failed: (max recursion depth exceeded|Exceeded maxDepth \(250\))/ },
    { name: 'larger than the expression size limit', expression: `"${'a'.repeat(100_001)}" == claims.sub`, want: /compilation failed: expression code point size exceeds limit: size: 100017, limit 100000$/ },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = problem(file({ jwt: [jwt({ rest: { claimValidationRules: [{ expression: c.expression }] } })] }));
      // The line repeats the expression (kube's Invalid value); only its end is shown on failure.
      expect(got.slice(-200)).toMatch(c.want);
      expect(got).not.toContain('\n');
    });
  }
});

describe('loading the file at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-authn-config-'));
  const write = (name: string, text: string | Buffer) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  async function loadProblem(file: string, anonymousFlagSet = false): Promise<string> {
    try {
      await loadAuthenticationConfig({ file, anonymousFlagSet, disallowedIssuers: [SA_ISSUER] });
    } catch (err) {
      if (err instanceof AuthenticationConfigError) return err.message;
      throw err;
    }
    return 'accepted';
  }

  test('a missing file', async () => {
    const p = join(dir, 'absent.yaml');
    expect(await loadProblem(p)).toBe(`failed to load authentication configuration from file ${JSON.stringify(p)}: open ${p}: no such file or directory`);
  });
  test('a decode error names the file', async () => {
    const p = write('bad.yaml', 'kind: [\n');
    expect(await loadProblem(p)).toMatch(new RegExp(`^failed to load authentication configuration from file ${JSON.stringify(p).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: error converting YAML to JSON`));
  });
  test('anonymous in the file and --anonymous-auth given', async () => {
    const p = write('anon.yaml', file({ jwt: [], anonymous: { enabled: true } }));
    expect(await loadProblem(p, true)).toBe('anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file');
    expect(await loadProblem(p, false)).toBe('accepted');
  });
  test('--anonymous-auth beside a file without anonymous', async () => {
    expect(await loadProblem(write('no-anon.yaml', file({ jwt: [jwt()] })), true)).toBe('accepted');
  });
  test('a file larger than the bound', async () => {
    const p = write('huge.yaml', Buffer.alloc(MAX_AUTHENTICATION_CONFIG_BYTES + 1, 0x20));
    expect(await loadProblem(p)).toBe(`failed to load authentication configuration from file ${JSON.stringify(p)}: file is larger than ${MAX_AUTHENTICATION_CONFIG_BYTES} bytes`);
  });
  test('YAML aliases that expand past the bound', async () => {
    const lines = ['apiVersion: apiserver.config.k8s.io/v1', 'kind: AuthenticationConfiguration', 'a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const got = await loadProblem(write('bomb.yaml', lines.join('\n')));
    expect(got).toMatch(/excessive aliasing/);
  });
});
