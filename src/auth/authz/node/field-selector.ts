// The one question the node authorizer asks of a list or watch's field selector:
// does it require `<field>=<value>` (`=` or `==`, kube's selection.Equals)? A
// selector that does not parse requires nothing (../field-selector.ts).
import { parseFieldSelector } from '../field-selector.js';

export function requiresField(selector: string | undefined, field: string, value: string): boolean {
  if (selector === undefined) return false;
  return (parseFieldSelector(selector) ?? []).some((r) => r.equals && r.field === field && r.value === value);
}
