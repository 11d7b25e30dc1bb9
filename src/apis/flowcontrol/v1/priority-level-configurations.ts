// PriorityLevelConfigurations: the concurrency a priority level gets and how it
// queues. kube's v1 defaults: a Limited level's nominalConcurrencyShares 30 only
// when left out (0 is a valid, explicit value), lendablePercent 0, queuing 64
// queues, hand size 8, queue length 50; an Exempt level's shares and lendable
// percent 0.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, forbiddenField, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { inclusiveRangeError } from '../../../registry/validation/common.js';
import { type Json, bumpGenerationIfChanged, objectAt, stringAt } from '../../core/v1/helpers.js';
import { validateConditions } from './flow-schemas.js';
import { priorityLevelConfigurationTable } from './priority-level-configurations-table.js';

export const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;
const MAX_QUEUES = 10_000_000;
/** shufflesharding.MaxHashBits. */
const MAX_HASH_BITS = 60;
const TYPES = ['Exempt', 'Limited'];
const LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'];

const unset = (v: unknown): boolean => v === undefined || v === null;
const unsetOrZero = (v: unknown): boolean => unset(v) || v === 0;

function applyDefaults(pl: KubeObject): void {
  const spec = objectAt(pl, 'spec');
  const exempt = objectAt(spec, 'exempt');
  if (exempt !== undefined) {
    if (unset(exempt.nominalConcurrencyShares)) exempt.nominalConcurrencyShares = 0;
    if (unset(exempt.lendablePercent)) exempt.lendablePercent = 0;
  }
  const limited = objectAt(spec, 'limited');
  if (limited === undefined) return;
  if (unset(limited.nominalConcurrencyShares)) limited.nominalConcurrencyShares = DEFAULT_NOMINAL_CONCURRENCY_SHARES;
  if (unset(limited.lendablePercent)) limited.lendablePercent = 0;
  const queuing = objectAt(objectAt(limited, 'limitResponse'), 'queuing');
  if (queuing === undefined) return;
  if (unsetOrZero(queuing.handSize)) queuing.handSize = 8;
  if (unsetOrZero(queuing.queues)) queuing.queues = 64;
  if (unsetOrZero(queuing.queueLengthLimit)) queuing.queueLengthLimit = 50;
}

const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

function validatePercent(v: unknown, p: FieldPath): FieldError[] {
  if (unset(v)) return [];
  const n = int(v);
  return n < 0 || n > 100 ? [invalidValue(p, n, inclusiveRangeError(0, 100))] : [];
}

function validateShares(v: unknown, p: FieldPath): FieldError[] {
  return !unset(v) && int(v) < 0 ? [invalidValue(p, int(v), 'must be a non-negative integer')] : [];
}

/** shufflesharding.RequiredEntropyBits: ceil(log2(deckSize) * handSize). */
function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

function validateQueuing(q: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const queues = int(q.queues);
  const handSize = int(q.handSize);
  const limit = int(q.queueLengthLimit);
  if (limit <= 0) errs.push(invalidValue(p.child('queueLengthLimit'), limit, 'must be positive'));
  if (queues <= 0) errs.push(invalidValue(p.child('queues'), queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errs.push(invalidValue(p.child('queues'), queues, `must not be greater than ${MAX_QUEUES}`));
  if (handSize <= 0) errs.push(invalidValue(p.child('handSize'), handSize, 'must be positive'));
  else if (handSize > queues) errs.push(invalidValue(p.child('handSize'), handSize, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
    errs.push(invalidValue(p.child('handSize'), handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`));
  }
  return errs;
}

function validateLimited(limited: Json, p: FieldPath): FieldError[] {
  const errs = [
    ...validateShares(limited.nominalConcurrencyShares, p.child('nominalConcurrencyShares')),
    ...validatePercent(limited.lendablePercent, p.child('lendablePercent')),
  ];
  if (!unset(limited.borrowingLimitPercent) && int(limited.borrowingLimitPercent) < 0) {
    errs.push(invalidValue(p.child('borrowingLimitPercent'), int(limited.borrowingLimitPercent), 'if specified, must be a non-negative integer'));
  }
  const lr: Json = objectAt(limited, 'limitResponse') ?? {};
  const lp = p.child('limitResponse');
  const type = stringAt(lr, 'type');
  const queuing = objectAt(lr, 'queuing');
  if (type === 'Reject') {
    if (queuing !== undefined) errs.push(forbiddenField(lp.child('queuing'), 'must be nil if limited.limitResponse.type is not Limited'));
  } else if (type === 'Queue') {
    if (queuing === undefined) errs.push(required(lp.child('queuing'), 'must not be empty if limited.limitResponse.type is Limited'));
    else errs.push(...validateQueuing(queuing, lp.child('queuing')));
  } else errs.push(notSupported(lp.child('type'), type, LIMIT_RESPONSE_TYPES));
  return errs;
}

export function validatePriorityLevelConfiguration(pl: KubeObject): FieldError[] {
  const spec: Json = objectAt(pl, 'spec') ?? {};
  const sp = path('spec');
  const errs: FieldError[] = [];
  const type = stringAt(spec, 'type');
  if ((pl.metadata.name === 'exempt') !== (type === 'Exempt')) errs.push(invalidValue(sp.child('type'), type, "type must be 'Exempt' if and only if name is 'exempt'"));
  const limited = objectAt(spec, 'limited');
  const exempt = objectAt(spec, 'exempt');
  if (type === 'Exempt') {
    if (limited !== undefined) errs.push(forbiddenField(sp.child('limited'), 'must be nil if the type is not Limited'));
    if (exempt !== undefined) {
      errs.push(...validateShares(exempt.nominalConcurrencyShares, sp.child('exempt', 'nominalConcurrencyShares')));
      errs.push(...validatePercent(exempt.lendablePercent, sp.child('exempt', 'lendablePercent')));
    }
  } else if (type === 'Limited') {
    if (exempt !== undefined) errs.push(forbiddenField(sp.child('exempt'), 'must be nil if the type is Limited'));
    if (limited === undefined) errs.push(required(sp.child('limited'), 'must not be empty when type is Limited'));
    else errs.push(...validateLimited(limited, sp.child('limited')));
  } else errs.push(notSupported(sp.child('type'), type, TYPES));
  errs.push(...validateConditions(pl));
  return errs;
}

export const priorityLevelConfigurations = defineResource({
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kind: 'PriorityLevelConfiguration',
  plural: 'prioritylevelconfigurations',
  scope: 'Cluster',
  table: priorityLevelConfigurationTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: applyDefaults,
    prepareForCreate: (pl) => {
      pl.metadata.generation = 1;
    },
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: validatePriorityLevelConfiguration,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: (next) => validateConditions(next) },
  },
});
