// Tokens a node may request (kube's admitServiceAccount): only bound to a pod, by
// uid, that is scheduled on it; and, with ServiceAccountNodeAudienceRestriction,
// only for an audience that pod uses (a projected token, or the token requests of
// the CSI driver behind one of its volumes) unless the authorizer grants the
// node `request-serviceaccounts-token-audience` on that audience. In-tree volumes
// kube would translate to CSI drivers are not looked at: they grant no audience.
import { getField, ownField } from '../../../schema/field-path.js';
import type { KubeObject } from '../../../schema/object.js';
import type { AdmissionAttributes } from '../../plugin.js';
import { forbid, list, mustGet, q, str, type NodeRequest } from './request.js';

/** A lister's NotFound text, which names the resource in the singular. */
const missing = (resource: string, name: string): Error => new Error(`${resource} ${q(name)} not found`);

/** utilerrors.NewAggregate(...).Error(): one message as is, several deduplicated in brackets. */
function aggregate(errs: readonly Error[]): string {
  const messages = [...new Set(errs.map((e) => e.message))];
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

async function csiDriverOfClaim(req: NodeRequest, namespace: string, claimName: string): Promise<string> {
  const { lookup } = req.options;
  const pvc = await lookup.getPersistentVolumeClaim(namespace, claimName);
  if (pvc === undefined) throw missing('persistentvolumeclaim', claimName);
  const volumeName = str(getField(pvc, 'spec.volumeName'));
  const pv = await lookup.getPersistentVolume(volumeName);
  if (pv === undefined) throw missing('persistentvolume', volumeName);
  return str(getField(pv, 'spec.csi.driver'));
}

async function csiDriverHasAudience(req: NodeRequest, driverName: string, audience: string): Promise<boolean> {
  const driver = await req.options.lookup.getCSIDriver(driverName);
  if (driver === undefined) throw missing('csidriver.storage.k8s.io', driverName);
  return list(getField(driver, 'spec.tokenRequests')).some((t) => str(ownField(t, 'audience')) === audience);
}

/** kube's podReferencesAudience: true on the first volume that uses the audience; errors only matter when none does. */
async function podReferencesAudience(req: NodeRequest, pod: KubeObject, audience: string): Promise<{ found: boolean; errors: Error[] }> {
  const errors: Error[] = [];
  const namespace = pod.metadata.namespace ?? '';
  for (const v of list(getField(pod, 'spec.volumes'))) {
    for (const p of list(getField(v, 'projected.sources'))) {
      const token = ownField(p, 'serviceAccountToken');
      if (token !== undefined && token !== null && str(ownField(token, 'audience')) === audience) return { found: true, errors };
    }
    try {
      let driver = '';
      if (getField(v, 'ephemeral.volumeClaimTemplate') != null) driver = await csiDriverOfClaim(req, namespace, `${pod.metadata.name ?? ''}-${str(ownField(v, 'name'))}`);
      else if (ownField(v, 'persistentVolumeClaim') != null) driver = await csiDriverOfClaim(req, namespace, str(getField(v, 'persistentVolumeClaim.claimName')));
      else driver = str(getField(v, 'csi.driver'));
      if (driver !== '' && (await csiDriverHasAudience(req, driver, audience))) return { found: true, errors };
    } catch (err) {
      errors.push(err instanceof Error ? err : new Error(String(err)));
    }
  }
  return { found: false, errors };
}

async function checkAudience(req: NodeRequest, tokenRequest: KubeObject, pod: KubeObject): Promise<void> {
  const { attrs } = req;
  const audiences = list(getField(tokenRequest, 'spec.audiences'));
  if (audiences.length > 1) throw forbid(attrs, 'node may only request 0 or 1 audiences');
  const audience = str(audiences[0]);
  const { found, errors } = await podReferencesAudience(req, pod, audience);
  if (found) return;
  if (errors.length > 0) throw forbid(attrs, `error validating audience ${q(audience)}: ${aggregate(errors)}`);
  const user = attrs.user!;
  const answer = await req.options.authorizeAudience({ user, namespace: attrs.namespace, serviceAccount: attrs.name, audience });
  // Allow wins over an evaluation error, as in the authorization filter.
  if (answer.allowed) return;
  if (answer.error !== undefined && answer.error !== '') {
    throw forbid(attrs, `audience ${q(audience)} not found in pod spec volume, error authorizing ${user.username} to request tokens for this audience: ${answer.error}`);
  }
  throw forbid(attrs, `audience ${q(audience)} not found in pod spec volume, ${user.username} is not authorized to request tokens for this audience`);
}

function boundPodRef(attrs: AdmissionAttributes): { name: string; uid: string } | undefined {
  const ref = getField(attrs.object, 'spec.boundObjectRef');
  if (ref === undefined || ref === null) return undefined;
  if (str(ownField(ref, 'apiVersion')) !== 'v1' || str(ownField(ref, 'kind')) !== 'Pod' || str(ownField(ref, 'name')) === '') return undefined;
  return { name: str(ownField(ref, 'name')), uid: str(ownField(ref, 'uid')) };
}

export async function admitServiceAccount(req: NodeRequest): Promise<void> {
  const { attrs, nodeName, options } = req;
  if (attrs.operation !== 'CREATE' || attrs.subresource !== 'token') return;
  const ref = boundPodRef(attrs);
  if (ref === undefined) throw forbid(attrs, 'node requested token not bound to a pod');
  if (ref.uid === '') throw forbid(attrs, 'node requested token with a pod binding without a uid');
  const pod = await mustGet(req, { resource: 'pod', name: ref.name }, () => options.lookup.getPod(attrs.namespace, ref.name));
  if (ref.uid !== pod.metadata.uid) {
    throw forbid(attrs, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  if (str(getField(pod, 'spec.nodeName')) !== nodeName) throw forbid(attrs, 'node requested token bound to a pod scheduled on a different node');
  if (options.features?.serviceAccountNodeAudienceRestriction !== false) await checkAudience(req, attrs.object!, pod);
}
