import { describe, expect, test } from 'vitest';
import {
  isConfigMapKey,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  nameValidators,
} from '../../../src/registry/validation/names.js';

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QNAME_NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const CONFIG_KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

const cases: { name: string; check: (v: string) => string[]; input: string; want: string[] }[] = [
  { name: 'subdomain ok', check: isDNS1123Subdomain, input: 'example.com', want: [] },
  { name: 'subdomain upper case', check: isDNS1123Subdomain, input: 'Foo', want: [SUBDOMAIN_MSG] },
  { name: 'subdomain too long', check: isDNS1123Subdomain, input: 'a'.repeat(254), want: ['must be no more than 253 characters'] },
  { name: 'subdomain trailing dash', check: isDNS1123Subdomain, input: 'a-', want: [SUBDOMAIN_MSG] },
  { name: 'label ok', check: isDNS1123Label, input: 'my-name', want: [] },
  { name: 'label with dots', check: isDNS1123Label, input: 'a.b', want: ['must not contain dots'] },
  { name: 'label underscore', check: isDNS1123Label, input: 'a_b', want: [LABEL_MSG] },
  { name: 'label too long', check: isDNS1123Label, input: 'a'.repeat(64), want: ['must be no more than 63 characters'] },
  { name: 'qualified name ok', check: isQualifiedName, input: 'example.com/My_Name', want: [] },
  { name: 'qualified name empty', check: isQualifiedName, input: '', want: ['name part must be non-empty', QNAME_NAME_MSG] },
  { name: 'qualified name empty prefix', check: isQualifiedName, input: '/a', want: ['prefix part must be non-empty'] },
  { name: 'qualified name bad prefix', check: isQualifiedName, input: 'Foo/a', want: [`prefix part ${SUBDOMAIN_MSG}`] },
  { name: 'qualified name space', check: isQualifiedName, input: 'a b', want: [QNAME_NAME_MSG] },
  {
    name: 'qualified name two slashes',
    check: isQualifiedName,
    input: 'a/b/c',
    want: [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
  },
  { name: 'label value empty ok', check: isValidLabelValue, input: '', want: [] },
  { name: 'label value bad', check: isValidLabelValue, input: '-x', want: [LABEL_VALUE_MSG] },
  { name: 'config key ok', check: isConfigMapKey, input: '.env_FILE-1', want: [] },
  { name: 'config key slash', check: isConfigMapKey, input: 'a/b', want: [CONFIG_KEY_MSG] },
  { name: 'config key dot dot', check: isConfigMapKey, input: '..a', want: ["must not start with '..'"] },
  { name: 'path segment dot', check: isValidPathSegmentName, input: '..', want: ["may not be '..'"] },
  { name: 'path segment slash percent', check: isValidPathSegmentName, input: 'a/%', want: ["may not contain '/'", "may not contain '%'"] },
  { name: 'generateName prefix with dash', check: (v) => nameValidators.subdomain(v, true), input: 'web-', want: [] },
  { name: 'generateName prefix upper', check: (v) => nameValidators.label(v, true), input: 'Web-', want: [LABEL_MSG] },
];

describe('name syntax', () => {
  for (const c of cases) test(c.name, () => expect(c.check(c.input)).toEqual(c.want));
});
