// What an AuthenticationConfiguration may say, rule for rule as kube-apiserver's
// ValidateAuthenticationConfiguration (k8s.io/apiserver pkg/apis/apiserver/
// validation) says it, with its field paths and texts; its CEL expressions are
// compiled here once (jwt-cel.ts) so the authenticator runs only checked
// programs. Every gate these rules consult (StructuredAuthenticationConfiguration,
// AnonymousAuthConfigurableEndpoints, …EgressSelector) is on, as kube 1.36 locks them.
import { isDNS1123Subdomain, regexError } from '../../schema/label-selector.js';
import { duplicate, goLiteral, invalidValue, path, required, tooMany, type FieldError, type FieldPath } from '../../schema/field-errors.js';
import type { Program } from '../../cel/index.js';
import type { AuthenticationConfiguration, ClaimMappings, ClaimValidationRule, IssuerConfig, JwtAuthenticatorConfig, PrefixedClaimOrExpression, UserValidationRule } from './authentication-config.js';
import { compileAuthenticationExpression, ExpressionCompileError } from './jwt-cel.js';
import { allNodes, type AstNode } from '../../cel/ast.js';

/** The compiled expressions of one JWT authenticator (kube's CELMapper). */
export interface CelMapper {
  readonly username?: Program;
  readonly groups?: Program;
  readonly uid?: Program;
  readonly extra: readonly { readonly key: string; readonly program: Program }[];
  readonly claimValidationRules: readonly { readonly program: Program; readonly message: string }[];
  readonly userValidationRules: readonly { readonly program: Program; readonly message: string }[];
}

export const MAX_JWT_AUTHENTICATORS = 64;

/** Go's fmt of a []string (sets.List): `[a b]`. */
function goList(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}

interface State {
  username?: Program;
  groups?: Program;
  uid?: Program;
  extra: { key: string; program: Program }[];
  claimValidationRules: { program: Program; message: string }[];
  userValidationRules: { program: Program; message: string }[];
  usesEmailClaim: boolean;
  usesEmailVerifiedClaim: boolean;
}

/** Every problem of the file (kube's order) and, per JWT authenticator, its compiled expressions. */
export function validateAuthenticationConfiguration(config: AuthenticationConfiguration, opts: { disallowedIssuers: readonly string[] }): { errors: FieldError[]; mappers: CelMapper[] } {
  const root = path('jwt');
  if (config.jwt.length > MAX_JWT_AUTHENTICATORS) return { errors: [tooMany(root, config.jwt.length, MAX_JWT_AUTHENTICATORS)], mappers: [] };
  const errors: FieldError[] = [];
  const mappers: CelMapper[] = [];
  const seenIssuers = new Set<string>();
  const seenDiscovery = new Set<string>();
  config.jwt.forEach((a, i) => {
    const p = root.index(i);
    const result = validateJwtAuthenticator(a, p, opts.disallowedIssuers);
    errors.push(...result.errors);
    mappers.push(result.mapper);
    if (seenIssuers.has(a.issuer.url)) errors.push(duplicate(p.child('issuer', 'url'), a.issuer.url));
    seenIssuers.add(a.issuer.url);
    if (a.issuer.discoveryURL !== '') {
      if (seenDiscovery.has(a.issuer.discoveryURL)) errors.push(duplicate(p.child('issuer', 'discoveryURL'), a.issuer.discoveryURL));
      seenDiscovery.add(a.issuer.discoveryURL);
    }
  });
  if (config.anonymous !== undefined && !config.anonymous.enabled && config.anonymous.conditions.length > 0) {
    const literal = `[]apiserver.AnonymousAuthCondition{${config.anonymous.conditions.map((c) => `apiserver.AnonymousAuthCondition{Path:${JSON.stringify(c.path)}}`).join(', ')}}`;
    errors.push(invalidValue(path('anonymous', 'conditions'), goLiteral(literal), 'enabled should be set to true when conditions are defined'));
  }
  return { errors, mappers };
}

/** One authenticator (kube's CompileAndValidateJWTAuthenticator; the flag path uses it with an empty path). */
export function validateJwtAuthenticator(a: JwtAuthenticatorConfig, p: FieldPath, disallowedIssuers: readonly string[]): { errors: FieldError[]; mapper: CelMapper } {
  const state: State = { extra: [], claimValidationRules: [], userValidationRules: [], usesEmailClaim: false, usesEmailVerifiedClaim: false };
  const errors = [
    ...validateIssuer(a.issuer, p.child('issuer'), disallowedIssuers),
    ...validateClaimValidationRules(a.claimValidationRules, p.child('claimValidationRules'), state),
    ...validateClaimMappings(a.claimMappings, p.child('claimMappings'), state),
    ...validateUserValidationRules(a.userValidationRules, p.child('userValidationRules'), state),
  ];
  const { usesEmailClaim: _u, usesEmailVerifiedClaim: _v, ...mapper } = state;
  return { errors, mapper };
}

function validateIssuer(issuer: IssuerConfig, p: FieldPath, disallowed: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  if (issuer.url === '') errs.push(required(p.child('url')));
  else errs.push(...validateUrl(issuer.url, p.child('url'), disallowed));
  if (issuer.discoveryURL !== '') {
    if (issuer.url !== '' && issuer.url.replace(/\/+$/, '') === issuer.discoveryURL.replace(/\/+$/, '')) {
      errs.push(invalidValue(p.child('discoveryURL'), issuer.discoveryURL, 'discoveryURL must be different from URL'));
    }
    errs.push(...validateUrl(issuer.discoveryURL, p.child('discoveryURL'), []));
  }
  errs.push(...validateAudiences(issuer, p));
  if (issuer.certificateAuthority !== '' && !/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(issuer.certificateAuthority)) {
    // certutil.NewPoolFromBytes's text for a bundle without a certificate.
    errs.push(invalidValue(p.child('certificateAuthority'), '<omitted>', 'data does not contain any valid RSA or ECDSA certificates'));
  }
  const egress = issuer.egressSelectorType;
  if (egress !== '' && egress !== 'controlplane' && egress !== 'cluster') {
    errs.push(invalidValue(p.child('egressSelectorType'), egress, 'egress selector must be either controlplane or cluster'));
  }
  return errs;
}

/** kube's validateURL over Go's url.Parse. */
function validateUrl(text: string, p: FieldPath, disallowed: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  if (disallowed.includes(text)) errs.push(invalidValue(p, text, `URL must not overlap with disallowed issuers: ${goList([...new Set(disallowed)].sort())}`));
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1];
  if (/[\x00-\x1f\x7f]/.test(text)) {
    errs.push(invalidValue(p, text, `parse ${JSON.stringify(text)}: net/url: invalid control character in URL`));
    return errs;
  }
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  // Go's url.Parse takes nearly anything without a scheme (as a path); an https
  // URL WHATWG cannot parse (a bad host) is one Go refuses too, in its own words.
  if (url === undefined && scheme?.toLowerCase() === 'https') {
    errs.push(invalidValue(p, text, `parse ${JSON.stringify(text)}: invalid URL`));
    return errs;
  }
  if (scheme?.toLowerCase() !== 'https') errs.push(invalidValue(p, text, 'URL scheme must be https'));
  if (url !== undefined && (url.username !== '' || url.password !== '' || /^[^/]*\/\/[^/]*@/.test(text))) errs.push(invalidValue(p, text, 'URL must not contain a username or password'));
  const hashAt = text.indexOf('#');
  const beforeHash = hashAt < 0 ? text : text.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  if (queryAt >= 0 && queryAt < beforeHash.length - 1) errs.push(invalidValue(p, text, 'URL must not contain a query'));
  if (hashAt >= 0 && hashAt < text.length - 1) errs.push(invalidValue(p, text, 'URL must not contain a fragment'));
  return errs;
}

function validateAudiences(issuer: IssuerConfig, issuerPath: FieldPath): FieldError[] {
  const p = issuerPath.child('audiences');
  const policyPath = issuerPath.child('audienceMatchPolicy');
  if (issuer.audiences.length === 0) return [required(p, `at least one ${p} is required`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  issuer.audiences.forEach((aud, i) => {
    if (aud === '') errs.push(required(p.index(i)));
    if (seen.has(aud)) errs.push(duplicate(p.index(i), aud));
    seen.add(aud);
  });
  const policy = issuer.audienceMatchPolicy;
  if (issuer.audiences.length > 1 && policy !== 'MatchAny') errs.push(invalidValue(policyPath, policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
  if (issuer.audiences.length === 1 && policy !== '' && policy !== 'MatchAny') errs.push(invalidValue(policyPath, policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
  return errs;
}

/** Compiles, turning a compile failure into kube's field error at `p`. */
function compile(expression: string, p: FieldPath, opts: { variable: 'claims' | 'user'; result: 'bool' | 'any' }): { program?: Program; error?: FieldError } {
  try {
    return { program: compileAuthenticationExpression(expression, opts) };
  } catch (err) {
    if (err instanceof ExpressionCompileError) return { error: invalidValue(p, expression, err.message) };
    throw err;
  }
}

function validateClaimValidationRules(rules: readonly ClaimValidationRule[], p: FieldPath, state: State): FieldError[] {
  const errs: FieldError[] = [];
  const seenClaims = new Set<string>();
  const seenExpressions = new Set<string>();
  rules.forEach((rule, i) => {
    const rp = p.index(i);
    if (rule.claim !== '' && rule.expression !== '') errs.push(invalidValue(rp, rule.claim, "claim and expression can't both be set"));
    else if (rule.claim === '' && rule.expression === '') errs.push(required(rp, 'claim or expression is required'));
    else if (rule.claim !== '') {
      if (rule.message !== '') errs.push(invalidValue(rp.child('message'), rule.message, 'may not be specified when claim is set'));
      if (seenClaims.has(rule.claim)) errs.push(duplicate(rp.child('claim'), rule.claim));
      seenClaims.add(rule.claim);
    } else {
      if (rule.requiredValue !== '') errs.push(invalidValue(rp.child('requiredValue'), rule.requiredValue, 'may not be specified when expression is set'));
      if (seenExpressions.has(rule.expression)) {
        errs.push(duplicate(rp.child('expression'), rule.expression));
        return;
      }
      seenExpressions.add(rule.expression);
      const { program, error } = compile(rule.expression, rp.child('expression'), { variable: 'claims', result: 'bool' });
      if (error !== undefined) errs.push(error);
      if (program !== undefined) {
        state.claimValidationRules.push({ program, message: rule.message });
        state.usesEmailVerifiedClaim ||= usesClaim(program, 'email_verified');
      }
    }
  });
  return errs;
}

/** Whether the expression selects `claims.<name>` (or `claims.?<name>`), kube's hasSelectExp. */
function usesClaim(program: Program, name: string): boolean {
  return allNodes(program.ast).some((n: AstNode) => {
    if (n.op !== '.' && n.op !== '.?') return false;
    const [operand, field] = n.args as readonly unknown[];
    return isIdent(operand, 'claims') && field === name;
  });
}

function isIdent(node: unknown, name: string): boolean {
  return typeof node === 'object' && node !== null && (node as AstNode).op === 'id' && (node as AstNode).args === name;
}

function validatePrefixed(m: PrefixedClaimOrExpression, p: FieldPath, claimOrExpressionRequired: boolean): { errors: FieldError[]; program?: Program } {
  if (m.expression !== '' && m.claim !== '') return { errors: [invalidValue(p, '', "claim and expression can't both be set")] };
  if (m.expression === '' && m.claim === '') return { errors: claimOrExpressionRequired ? [required(p, 'claim or expression is required')] : [] };
  if (m.expression !== '') {
    const errors: FieldError[] = [];
    if (m.prefix !== undefined) errors.push(invalidValue(p.child('prefix'), m.prefix, 'may not be specified when expression is set'));
    const { program, error } = compile(m.expression, p.child('expression'), { variable: 'claims', result: 'any' });
    if (error !== undefined) errors.push(error);
    return program === undefined ? { errors } : { errors, program };
  }
  return { errors: m.prefix === undefined ? [required(p.child('prefix'), 'prefix is required when claim is set. It can be set to an empty string to disable prefixing')] : [] };
}

function validateClaimMappings(m: ClaimMappings, p: FieldPath, state: State): FieldError[] {
  const errs: FieldError[] = [];
  const username = validatePrefixed(m.username, p.child('username'), true);
  errs.push(...username.errors);
  if (username.errors.length === 0 && username.program !== undefined) {
    state.usesEmailClaim ||= usesClaim(username.program, 'email');
    state.usesEmailVerifiedClaim ||= usesClaim(username.program, 'email_verified');
    state.username = username.program;
  }
  const groups = validatePrefixed(m.groups, p.child('groups'), false);
  errs.push(...groups.errors);
  if (groups.errors.length === 0 && groups.program !== undefined) state.groups = groups.program;
  if (m.uid.claim !== '' && m.uid.expression !== '') errs.push(invalidValue(p.child('uid'), '', "claim and expression can't both be set"));
  else if (m.uid.expression !== '') {
    const { program, error } = compile(m.uid.expression, p.child('uid', 'expression'), { variable: 'claims', result: 'any' });
    if (error !== undefined) errs.push(error);
    else state.uid = program;
  }
  const seenKeys = new Set<string>();
  m.extra.forEach((mapping, i) => {
    const ep = p.child('extra').index(i);
    errs.push(...domainPrefixedPath(ep.child('key'), mapping.key));
    if (mapping.key !== mapping.key.toLowerCase()) errs.push(invalidValue(ep.child('key'), mapping.key, 'must be lowercase'));
    if (isKubernetesDomain(mapping.key)) errs.push(invalidValue(ep.child('key'), mapping.key, 'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use'));
    if (seenKeys.has(mapping.key)) {
      errs.push(duplicate(ep.child('key'), mapping.key));
      return;
    }
    seenKeys.add(mapping.key);
    if (mapping.valueExpression === '') {
      errs.push(required(ep.child('valueExpression')));
      return;
    }
    const { program, error } = compile(mapping.valueExpression, ep.child('valueExpression'), { variable: 'claims', result: 'any' });
    if (error !== undefined) errs.push(error);
    if (program !== undefined) {
      state.extra.push({ key: mapping.key, program });
      state.usesEmailVerifiedClaim ||= usesClaim(program, 'email_verified');
    }
  });
  if (state.usesEmailClaim && !state.usesEmailVerifiedClaim) {
    errs.push(
      invalidValue(
        p.child('username', 'expression'),
        m.username.expression,
        'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
      ),
    );
  }
  return errs;
}

function validateUserValidationRules(rules: readonly UserValidationRule[], p: FieldPath, state: State): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const rp = p.index(i);
    if (rule.expression === '') {
      errs.push(required(rp.child('expression')));
      return;
    }
    if (seen.has(rule.expression)) {
      errs.push(duplicate(rp.child('expression'), rule.expression));
      return;
    }
    seen.add(rule.expression);
    const { program, error } = compile(rule.expression, rp.child('expression'), { variable: 'user', result: 'bool' });
    if (error !== undefined) errs.push(error);
    if (program !== undefined) state.userValidationRules.push({ program, message: rule.message });
  });
  return errs;
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/** apimachinery's IsDomainPrefixedPath. */
function domainPrefixedPath(p: FieldPath, value: string): FieldError[] {
  if (value === '') return [required(p)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || rest === '') return [invalidValue(p, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((m) => invalidValue(p, host, m));
  if (!new RegExp(`^${HTTP_PATH_FMT}$`).test(rest)) errs.push(invalidValue(p, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

function isKubernetesDomain(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const domain = key.slice(0, slash);
  return domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io') || domain === 'k8s.io' || domain.endsWith('.k8s.io');
}

/** utilerrors.NewAggregate's text: the one message, or `[a, b]`. */
export function aggregateMessage(errors: readonly FieldError[]): string {
  return errors.length === 1 ? errors[0]!.message : `[${errors.map((e) => e.message).join(', ')}]`;
}
