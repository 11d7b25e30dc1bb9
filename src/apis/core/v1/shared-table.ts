// Cell helpers several core/v1 kinds share: container name/image lists, key
// counts, access-mode abbreviations and storage classes, as kube's printers
// render them.
import { arrayAt, objectAt, stringAt } from './helpers.js';

export function keyCount(map: unknown): number {
  return map !== null && typeof map === 'object' && !Array.isArray(map) ? Object.keys(map).length : 0;
}

/** Container names and images, each comma-joined in spec order. */
export function containerCells(podSpec: unknown): { names: string; images: string } {
  const containers = arrayAt(podSpec, 'containers');
  return {
    names: containers.map((c) => stringAt(c, 'name')).join(','),
    images: containers.map((c) => stringAt(c, 'image')).join(','),
  };
}

const ACCESS_MODES: readonly { mode: string; short: string }[] = [
  { mode: 'ReadWriteOnce', short: 'RWO' },
  { mode: 'ReadOnlyMany', short: 'ROX' },
  { mode: 'ReadWriteMany', short: 'RWX' },
  { mode: 'ReadWriteOncePod', short: 'RWOP' },
];

/** Abbreviated access modes in kube's fixed order, each once: "RWO,RWX". */
export function accessModes(modes: unknown): string {
  const given = Array.isArray(modes) ? modes : [];
  return ACCESS_MODES.filter((m) => given.includes(m.mode)).map((m) => m.short).join(',');
}

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** The beta annotation still wins over spec.storageClassName, as in kube's helpers. */
export function storageClassOf(obj: { metadata: { annotations?: Record<string, string> }; spec?: unknown }): string {
  const annotated = obj.metadata.annotations?.[BETA_STORAGE_CLASS];
  if (annotated !== undefined) return annotated;
  return stringAt(objectAt(obj, 'spec'), 'storageClassName');
}

/** A quantity as stored, or "0" when absent (kube prints a zero Quantity). */
export function quantityCell(map: unknown, key: string): string {
  const v = map !== null && typeof map === 'object' ? (map as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : '0';
}
