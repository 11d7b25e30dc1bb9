// Syntax checks shared by every resource: object names, label keys and values,
// config keys. Each check returns the list of problems as apimachinery's
// pkg/util/validation does (empty when valid); callers wrap each message in a
// FieldError for the path they check, so wire messages match kube-apiserver's.
import {
  DNS1123_LABEL_FMT,
  DNS1123_SUBDOMAIN,
  DNS1123_SUBDOMAIN_MAX_LENGTH,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  matchesDNS1123Subdomain,
  matchesQualifiedName,
  maxLenError,
  regexError,
} from '../../schema/label-selector.js';
import type { NameValidation } from '../define-resource.js';

// Label keys and values (and the DNS subdomain a key's prefix is) are checked where
// label selectors are parsed, in schema/; these are the same functions.
export { isDNS1123Subdomain, isQualifiedName, isValidLabelValue, matchesDNS1123Subdomain, matchesQualifiedName };

const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const CONFIG_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

export const DNS1123_LABEL_MAX_LENGTH = 63;

const anchored = (fmt: string): RegExp => new RegExp(`^${fmt}$`);
const dns1123Label = anchored(DNS1123_LABEL_FMT);
const configKey = anchored(CONFIG_KEY_FMT);

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!dns1123Label.test(value)) {
    // A valid subdomain within the length limit can only fail as a label because of dots.
    if (DNS1123_SUBDOMAIN.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

/** isDNS1123Label found nothing: asked first where names are nearly always valid, so a valid one makes no list. */
export function matchesDNS1123Label(value: string): boolean {
  return value.length <= DNS1123_LABEL_MAX_LENGTH && dns1123Label.test(value);
}

/** Keys of ConfigMap data/binaryData and Secret data: they become file names in volumes. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!configKey.test(value)) errs.push(regexError(CONFIG_KEY_MSG, CONFIG_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** isConfigMapKey found nothing: asked first, so a valid key makes no list. */
export function matchesConfigMapKey(value: string): boolean {
  return value.length <= DNS1123_SUBDOMAIN_MAX_LENGTH && configKey.test(value) && !value.startsWith('..') && value !== '.';
}

/** Names that only need to be safe as one URL path segment (events, RBAC objects). */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return isValidPathSegmentPrefix(name);
}

function isValidPathSegmentPrefix(name: string): string[] {
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/**
 * generateName is checked as a prefix: kube masks a trailing '-' by replacing the
 * last two characters with "a" (apimachinery's maskTrailingDash), so "x-" passes.
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** A name (not a generateName prefix) the validation finds nothing wrong with, asked without building messages. */
export function isValidName(validation: NameValidation, name: string): boolean {
  switch (validation) {
    case 'subdomain':
      return matchesDNS1123Subdomain(name);
    case 'label':
      return matchesDNS1123Label(name);
    case 'path-segment':
      return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
  }
}

export type NameValidator = (name: string, prefix: boolean) => string[];

export const nameValidators: Readonly<Record<NameValidation, NameValidator>> = {
  subdomain: (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name),
  label: (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name),
  'path-segment': (name, prefix) => (prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name)),
};
