// Runs a definition's strategy the way the generic store does (prepare, then
// validate), without storage, so kind tests stay tables of objects and messages.
import type { ResourceDefinition } from '../../src/registry/define-resource.js';
import type { KubeObject } from '../../src/schema/object.js';

export function runCreate(def: ResourceDefinition, input: KubeObject): { obj: KubeObject; errors: string[] } {
  const obj = structuredClone(input);
  def.strategy.prepareForCreate?.(obj);
  return { obj, errors: (def.strategy.validate?.(obj) ?? []).map((e) => e.message) };
}

export function runUpdate(def: ResourceDefinition, prevInput: KubeObject, nextInput: KubeObject): { obj: KubeObject; errors: string[] } {
  const prev = runCreate(def, prevInput).obj;
  prev.metadata.resourceVersion = '1';
  const next = structuredClone(nextInput);
  next.metadata.resourceVersion = '1';
  // The store carries generation over before the strategy runs.
  if (prev.metadata.generation !== undefined) next.metadata.generation = prev.metadata.generation;
  def.strategy.prepareForUpdate?.(next, prev);
  return { obj: next, errors: (def.strategy.validateUpdate?.(next, prev) ?? []).map((e) => e.message) };
}
