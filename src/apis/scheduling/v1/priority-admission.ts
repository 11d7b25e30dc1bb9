// kube's Priority admission plugin, the part about PriorityClasses: at most one
// class is the global default. A second one is refused (403, kube's text) on
// create, and on an update that marks another class default. The system classes
// may not be deleted (kube refuses that in the kind's REST Delete, with the same
// 403; here it is this plugin's DELETE check). It reads the stored
// classes, which a strategy may not, so it lives here as a validating plugin that
// main.ts adds to the chain. (The plugin's other half, resolving a pod's priority
// from its class, belongs to pods.)
import type { AdmissionAttributes, AdmissionPlugin } from '../../../admission/plugin.js';
import { forbidden } from '../../../errors/status-error.js';
import type { KubeObject } from '../../../schema/object.js';
import { collectionPrefix } from '../../../registry/keys.js';
import type { Storage } from '../../../storage/storage.js';
import { SYSTEM_PRIORITY_CLASSES, priorityClasses } from './priority-classes.js';

export interface PriorityClassLister {
  /** Every stored PriorityClass. */
  list(): Promise<readonly KubeObject[]>;
}

/** The default class; should a race have left two, the one of lowest value (as kube picks). */
export function defaultPriorityClass(classes: readonly KubeObject[]): KubeObject | undefined {
  let found: KubeObject | undefined;
  for (const pc of classes) {
    if (pc.globalDefault !== true) continue;
    if (found === undefined || Number(found.value ?? 0) > Number(pc.value ?? 0)) found = pc;
  }
  return found;
}

export function priorityAdmission(lister: PriorityClassLister): AdmissionPlugin {
  return {
    name: 'Priority',
    async validate(attrs: AdmissionAttributes): Promise<void> {
      if (attrs.subresource !== '' || attrs.resource.group !== 'scheduling.k8s.io' || attrs.resource.resource !== 'priorityclasses') return;
      const gr = { group: attrs.resource.group, resource: attrs.resource.resource };
      if (attrs.operation === 'DELETE' && SYSTEM_PRIORITY_CLASSES.some((c) => c.name === attrs.name)) {
        throw forbidden(gr, attrs.name, 'this is a system priority class and cannot be deleted');
      }
      if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
      if (attrs.object?.globalDefault !== true) return;
      const current = defaultPriorityClass(await lister.list());
      if (current === undefined) return;
      if (attrs.operation === 'CREATE' || current.metadata.name !== attrs.name) {
        throw forbidden(
          gr,
          attrs.name,
          `PriorityClass ${current.metadata.name ?? ''} is already marked as default. Only one default can exist`,
        );
      }
    },
  };
}

/** The plugin over the stored classes (kube reads them through an informer; a list is one range read). */
export function priorityAdmissionFromStorage(storage: Storage): AdmissionPlugin {
  return priorityAdmission({ list: async () => (await storage.list(collectionPrefix(priorityClasses))).items });
}
