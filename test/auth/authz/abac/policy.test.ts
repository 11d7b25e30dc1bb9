// --authorization-policy-file parsing (src/auth/authz/abac/policy.ts): the forms
// kube accepts and what each converts to, and kube's start errors word for word
// (pkg/auth/authorizer/abac/abac.go NewFromFile, pkg/apis/abac/{v0,v1beta1}).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadAbacPolicyFile, parseAbacPolicyFile, type AbacPolicy } from '../../../../src/auth/authz/abac/policy.js';

const FILE = '/etc/kubernetes/abac.jsonl';
const V1 = '"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy"';

function policy(fields: Partial<AbacPolicy>): AbacPolicy {
  return { user: '', group: '', readonly: false, apiGroup: '', resource: '', namespace: '', nonResourcePath: '', ...fields };
}

function thrownBy(fn: () => unknown): { name: string; message: string } | undefined {
  try {
    fn();
  } catch (err) {
    return { name: (err as Error).name, message: (err as Error).message };
  }
  return undefined;
}

/** What v0 makes of a line that names only a subject: everything, resources and paths. */
const v0All = (fields: Partial<AbacPolicy>): AbacPolicy => policy({ apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*', ...fields });

describe('parseAbacPolicyFile: what each line becomes', () => {
  const cases: Array<{ name: string; input: string; want: AbacPolicy[] }> = [
    { name: 'empty file', input: '', want: [] },
    { name: 'only blank lines and comments (leading spaces, tabs, CRLF)', input: '\n   \n# one\n\t  # two\r\n\r\n', want: [] },
    {
      name: 'one v0 line without a final newline (kube TestOneLineFileNoNewLine)',
      input: '{"user":"scheduler",  "readonly": true, "resource": "pods", "namespace":"ns1"}',
      want: [policy({ user: 'scheduler', readonly: true, apiGroup: '*', resource: 'pods', namespace: 'ns1' })],
    },
    {
      name: 'v0: empty namespace means all namespaces, and every v0 rule every API group',
      input: '{"user":"scheduler","readonly":true,"resource":"pods"}\n{"user":"scheduler","resource":"bindings"}\r\n',
      want: [policy({ user: 'scheduler', readonly: true, apiGroup: '*', resource: 'pods', namespace: '*' }), policy({ user: 'scheduler', apiGroup: '*', resource: 'bindings', namespace: '*' })],
    },
    { name: 'v0: a namespace alone means every resource in it, and no paths', input: '{"user":"alice","namespace":"projectCaribou"}', want: [policy({ user: 'alice', apiGroup: '*', resource: '*', namespace: 'projectCaribou' })] },
    { name: 'v0: no user and no group means all authenticated users', input: '{"readonly":true,"resource":"events"}', want: [policy({ group: 'system:authenticated', readonly: true, apiGroup: '*', resource: 'events', namespace: '*' })] },
    { name: 'v0: {} allows every authenticated user everything (kube "v0 null resource")', input: '{}', want: [v0All({ group: 'system:authenticated' })] },
    { name: 'v0: user * becomes group system:authenticated', input: '{"user":"*"}', want: [v0All({ group: 'system:authenticated' })] },
    { name: 'v0: group * drops the user too', input: '{"user":"bob","group":"*","resource":"pods"}', want: [policy({ group: 'system:authenticated', apiGroup: '*', resource: 'pods', namespace: '*' })] },
    { name: 'v0: user and group both kept', input: '{"user":"bob","group":"dev"}', want: [v0All({ user: 'bob', group: 'dev' })] },
    { name: 'v0 has no apiGroup or nonResourcePath: both dropped', input: '{"user":"bob","namespace":"ns","apiGroup":"apps","nonResourcePath":"/x"}', want: [policy({ user: 'bob', apiGroup: '*', resource: '*', namespace: 'ns' })] },
    { name: 'v0 named by its apiVersion', input: '{"apiVersion":"abac.authorization.kubernetes.io/v0","kind":"Policy","user":"bob"}', want: [v0All({ user: 'bob' })] },
    { name: 'v0 with only the kind', input: '{"kind":"Policy","user":"bob"}', want: [v0All({ user: 'bob' })] },
    { name: 'v0 with the group and no version ("abac.authorization.kubernetes.io/")', input: '{"apiVersion":"abac.authorization.kubernetes.io/","kind":"Policy","user":"bob"}', want: [v0All({ user: 'bob' })] },
    { name: 'a YAML line is a v0 policy too', input: 'user: alice\nreadonly: yes', want: [v0All({ user: 'alice' }), v0All({ group: 'system:authenticated', readonly: true })] },
    { name: 'a null line decodes to an empty v0 policy', input: 'null\n~', want: [v0All({ group: 'system:authenticated' }), v0All({ group: 'system:authenticated' })] },
    { name: 'null fields keep their zero value', input: '{"user":null,"group":"g","readonly":null}', want: [v0All({ group: 'g' })] },
    {
      name: 'v1beta1: fields copied as written',
      input: `{${V1},"spec":{"user":"bob","group":"dev","readonly":true,"apiGroup":"apps","resource":"deployments","namespace":"ns","nonResourcePath":"/x"}}`,
      want: [policy({ user: 'bob', group: 'dev', readonly: true, apiGroup: 'apps', resource: 'deployments', namespace: 'ns', nonResourcePath: '/x' })],
    },
    { name: 'v1beta1: empty fields stay empty (no defaults)', input: `{${V1},"spec":{"user":"bob","resource":"pods"}}`, want: [policy({ user: 'bob', resource: 'pods' })] },
    { name: 'v1beta1: no user and no group loads, and matches nobody', input: `{${V1},"spec":{"resource":"*","namespace":"*"}}\n{${V1}}\n{${V1},"spec":null}`, want: [policy({ resource: '*', namespace: '*' }), policy({}), policy({})] },
    { name: 'v1beta1: user * becomes group system:authenticated', input: `{${V1},"spec":{"user":"*","nonResourcePath":"/api"}}`, want: [policy({ group: 'system:authenticated', nonResourcePath: '/api' })] },
    { name: 'v1beta1: group * drops the user', input: `{${V1},"spec":{"user":"bob","group":"*","resource":"pods","namespace":"*"}}`, want: [policy({ group: 'system:authenticated', resource: 'pods', namespace: '*' })] },
    { name: 'v1beta1: spec keys are case-sensitive, unknown keys dropped', input: `{${V1},"spec":{"User":"bob","group":"dev","verbs":["get"]},"metadata":{}}`, want: [policy({ group: 'dev' })] },
    {
      name: 'apiVersion and kind are found case-insensitively (encoding/json), the last one winning',
      input: '{"APIVERSION":"abac.authorization.kubernetes.io/v1beta1","Kind":"Foo","KIND":"Policy","spec":{"user":"bob"}}\n{"apiVer\u017fion":"abac.authorization.kubernetes.io/v1beta1","\u212aind":"Policy","spec":{"user":"bob"}}',
      want: [policy({ user: 'bob' }), policy({ user: 'bob' })],
    },
    { name: 'the internal version, with Go field names and no conversion of *', input: '{"apiVersion":"abac.authorization.kubernetes.io/__internal","kind":"Policy","Spec":{"User":"*","NonResourcePath":"*","user":"x"}}', want: [policy({ user: '*', nonResourcePath: '*' })] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(parseAbacPolicyFile(c.input, FILE)).toEqual(c.want);
    });
  }

  test("kube's example_policy_file.jsonl loads", () => {
    const example = [
      '{"user":"admin"}',
      '{"user":"scheduler", "readonly": true, "resource": "pods"}',
      '{"user":"scheduler", "resource": "bindings"}',
      '{"user":"kubelet",  "readonly": true, "resource": "pods"}',
      '{"user":"kubelet", "resource": "events"}',
      '{"user":"alice", "namespace": "projectCaribou"}',
      '{"user":"bob", "readonly": true, "namespace": "projectCaribou"}',
    ].join('\n');
    expect(parseAbacPolicyFile(example, FILE)).toHaveLength(7);
  });
});

describe('parseAbacPolicyFile: start errors', () => {
  const TYPE_META = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
  const at = (line: number, text: string, why: string): string => `error reading policy file ${FILE}, line ${line}: ${text}: ${why}`;
  const cases: Array<{ name: string; input: string; want: string }> = [
    { name: 'invalid JSON, numbered after a comment and a blank line', input: '# c\n\n{"user":', want: at(3, '{"user":', "couldn't get version/kind; json parse error: Unexpected end of JSON input") },
    { name: 'the first bad line stops the file', input: '{"user":"a"}\n{"user":1}\n{"user":2}', want: at(2, '{"user":1}', 'json: cannot unmarshal number into Go struct field Policy.user of type string') },
    { name: 'the reported line keeps its spaces and loses its \\r', input: '  {"readonly":"yes"}  \r\n', want: at(1, '  {"readonly":"yes"}  ', 'json: cannot unmarshal string into Go struct field Policy.readonly of type bool') },
    { name: 'v1beta1 spec of the wrong type', input: `{${V1},"spec":"bob"}`, want: at(1, `{${V1},"spec":"bob"}`, 'json: cannot unmarshal string into Go struct field Policy.spec of type v1beta1.PolicySpec') },
    { name: 'v1beta1 field of the wrong type, with its path', input: `{${V1},"spec":{"readonly":1}}`, want: at(1, `{${V1},"spec":{"readonly":1}}`, 'json: cannot unmarshal number into Go struct field PolicySpec.spec.readonly of type bool') },
    { name: 'the first wrong field in the line is the one reported', input: `{${V1},"spec":{"group":[],"user":1}}`, want: at(1, `{${V1},"spec":{"group":[],"user":1}}`, 'json: cannot unmarshal array into Go struct field PolicySpec.spec.group of type string') },
    { name: 'apiVersion not a string', input: '{"apiVersion":1}', want: at(1, '{"apiVersion":1}', "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string") },
    { name: 'kind not a string, found case-insensitively', input: '{"KIND":true}', want: at(1, '{"KIND":true}', "couldn't get version/kind; json parse error: json: cannot unmarshal bool into Go struct field .kind of type string") },
    { name: 'a YAML scalar is not an object', input: 'hello', want: at(1, 'hello', `couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${TYPE_META}`) },
    { name: 'a list is not an object', input: '[{"user":"a"}]', want: at(1, '[{"user":"a"}]', `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${TYPE_META}`) },
    { name: 'YAML syntax error', input: 'user: [', want: at(1, 'user: [', 'error converting YAML to JSON: yaml: unexpected end of the stream within a flow collection (2:1)') },
    { name: 'apiVersion with two slashes', input: '{"apiVersion":"a/b/c"}', want: at(1, '{"apiVersion":"a/b/c"}', 'unexpected GroupVersion string: a/b/c') },
    { name: 'unknown kind in v1beta1', input: '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Rule"}', want: at(1, '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Rule"}', 'no kind "Rule" is registered for version "abac.authorization.kubernetes.io/v1beta1" in scheme "pkg/apis/abac/register.go:33"') },
    { name: 'kind matched case-sensitively', input: '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"policy"}', want: at(1, '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"policy"}', 'no kind "policy" is registered for version "abac.authorization.kubernetes.io/v1beta1" in scheme "pkg/apis/abac/register.go:33"') },
    { name: 'unknown kind without apiVersion defaults to v0', input: '{"kind":"Rule"}', want: at(1, '{"kind":"Rule"}', 'no kind "Rule" is registered for version "abac.authorization.kubernetes.io/v0" in scheme "pkg/apis/abac/register.go:33"') },
    { name: 'another group', input: '{"apiVersion":"v1","kind":"Policy"}', want: at(1, '{"apiVersion":"v1","kind":"Policy"}', 'no kind "Policy" is registered for version "v1" in scheme "pkg/apis/abac/register.go:33"') },
    { name: 'unknown kind in the internal version', input: '{"apiVersion":"abac.authorization.kubernetes.io/__internal","kind":"Rule"}', want: at(1, '{"apiVersion":"abac.authorization.kubernetes.io/__internal","kind":"Rule"}', 'no kind "Rule" is registered for the internal version of group "abac.authorization.kubernetes.io" in scheme "pkg/apis/abac/register.go:33"') },
    { name: 'another group without a version', input: '{"apiVersion":"example.com/","kind":"Policy"}', want: at(1, '{"apiVersion":"example.com/","kind":"Policy"}', `Object 'apiVersion' is missing in '{"apiVersion":"example.com/","kind":"Policy"}'`) },
    { name: 'v1beta1 without kind cannot convert to v0', input: '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","spec":{"user":"a"}}', want: at(1, '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","spec":{"user":"a"}}', 'converting (v1beta1.Policy) to (v0.Policy): unknown conversion') },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(thrownBy(() => parseAbacPolicyFile(c.input, FILE))).toEqual({ name: 'AbacPolicyFileError', message: c.want });
    });
  }

  test('a line of 64 KiB or more ends the scan (bufio.ErrTooLong), after the lines before it', () => {
    const fits = `#${'x'.repeat(65_534)}`;
    expect(parseAbacPolicyFile(`${fits}\n${fits}`, FILE)).toEqual([]);
    expect(() => parseAbacPolicyFile(`{"user":"a"}\n#${'x'.repeat(65_535)}\n`, FILE)).toThrow(`error reading policy file ${FILE}: bufio.Scanner: token too long`);
    // Bytes count, not characters: 21,846 three-byte characters are 65,538 bytes.
    expect(() => parseAbacPolicyFile(`#${'€'.repeat(21_845)}`, FILE)).toThrow('token too long');
    expect(() => parseAbacPolicyFile(`{"user":1}\n#${'x'.repeat(70_000)}`, FILE)).toThrow(`line 1: {"user":1}: json`);
  });
});

describe('parseAbacPolicyFile: keys are data', () => {
  const cases: Array<{ name: string; input: string; want: AbacPolicy[] }> = [
    { name: '__proto__ is an unknown v0 field', input: '{"__proto__":{"readonly":true,"user":"x"},"user":"a"}', want: [v0All({ user: 'a' })] },
    { name: 'prototype member names are unknown fields', input: '{"constructor":"x","toString":1,"hasOwnProperty":true,"valueOf":null,"user":"a"}', want: [v0All({ user: 'a' })] },
    { name: '__proto__ inside a v1beta1 spec', input: `{${V1},"spec":{"__proto__":{"user":"x"},"group":"g"}}`, want: [policy({ group: 'g' })] },
    { name: '__proto__ as the spec key', input: '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","__proto__":{"spec":{"user":"x"}}}', want: [policy({})] },
    { name: '__proto__ in YAML', input: '__proto__: {user: x, readonly: true}', want: [v0All({ group: 'system:authenticated' })] },
    { name: 'a version named like a prototype member is unregistered', input: '{"kind":"Policy","apiVersion":"abac.authorization.kubernetes.io/constructor"}', want: [] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      if (c.want.length === 0) expect(() => parseAbacPolicyFile(c.input, FILE)).toThrow('no kind "Policy" is registered for version "abac.authorization.kubernetes.io/constructor"');
      else expect(parseAbacPolicyFile(c.input, FILE)).toEqual(c.want);
      const probe = {} as Record<string, unknown>;
      expect(probe.user).toBeUndefined();
      expect(probe.readonly).toBeUndefined();
      expect(probe.spec).toBeUndefined();
    });
  }
});

describe('parseAbacPolicyFile: the unversioned warning', () => {
  const cases: Array<{ name: string; input: string; want: string[] }> = [
    { name: 'v1beta1 only: no warning', input: `{${V1},"spec":{"user":"a"}}`, want: [] },
    { name: 'explicit v0 is versioned', input: '{"apiVersion":"abac.authorization.kubernetes.io/v0","kind":"Policy","user":"a"}', want: [] },
    { name: 'unversioned lines: one warning for the file', input: `{"user":"a"}\n{${V1},"spec":{"user":"a"}}\n{"user":"b"}`, want: [`Policy file ${FILE} contained unversioned rules. See docs/admin/authorization.md#abac-mode for ABAC file format details.`] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const warnings: string[] = [];
      parseAbacPolicyFile(c.input, FILE, { warn: (m) => warnings.push(m) });
      expect(warnings).toEqual(c.want);
    });
  }
});

test('a 10,000-line file parses quickly', () => {
  const lines: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    lines.push(i % 2 === 0 ? `{${V1},"spec":{"user":"user-${i}","namespace":"ns-${i}","resource":"pods","readonly":true}}` : `{"user":"user-${i}","resource":"configmaps"}`);
  }
  const started = performance.now();
  const policies = parseAbacPolicyFile(lines.join('\n'), FILE);
  expect(performance.now() - started).toBeLessThan(2_000);
  expect(policies).toHaveLength(10_000);
  expect(policies[9_998]).toEqual(policy({ user: 'user-9998', namespace: 'ns-9998', resource: 'pods', readonly: true }));
});

describe('loadAbacPolicyFile', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kapi-abac-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('reads and parses the file', async () => {
    const path = join(dir, 'policy.jsonl');
    await writeFile(path, `# policies\n{${V1},"spec":{"user":"bob","nonResourcePath":"*"}}\n`);
    expect(await loadAbacPolicyFile(path)).toEqual([policy({ user: 'bob', nonResourcePath: '*' })]);
  });

  test("a missing file is os.Open's error, unwrapped", async () => {
    const path = join(dir, 'missing.jsonl');
    await expect(loadAbacPolicyFile(path)).rejects.toThrow(`open ${path}: no such file or directory`);
  });

  test('a directory opens, then fails to read inside the wrapper', async () => {
    await expect(loadAbacPolicyFile(dir)).rejects.toThrow(`error reading policy file ${dir}: read ${dir}: is a directory`);
  });
});
