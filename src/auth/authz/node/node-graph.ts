// The graph's object-level operations, as kube's graph.go names them: a bound pod
// links itself to its Node and everything it references to itself; a PV links
// itself to its claim and its kubelet-visible secrets to itself; attachments and
// ResourceSlices link straight to their Node. Each add first deletes the object's
// vertex, so an update is a clean replace, and deletes drop orphaned neighbors.
import type { KubeObject } from '../../../schema/object.js';
import { getField, ownField } from '../../../schema/field-path.js';
import { Graph, type VertexType } from './graph.js';
import { podClaimNames, podConfigMapNames, podResourceClaimNames, podSecretNames, pvKubeletSecrets, str } from './pod-references.js';

/** core/v1 MirrorPodAnnotationKey: the kubelet's copy of a static pod. */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

export function isMirrorPod(pod: KubeObject): boolean {
  const annotations = pod.metadata.annotations;
  return annotations !== null && typeof annotations === 'object' && Object.hasOwn(annotations, MIRROR_POD_ANNOTATION);
}

export class NodeGraph {
  private readonly graph = new Graph();

  /** kube's AddPod; call only for pods with spec.nodeName set. */
  addPod(pod: KubeObject): void {
    const namespace = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    this.graph.deleteVertex('pod', namespace, name);
    const podVertex = this.graph.getOrCreate('pod', namespace, name);
    const node = this.graph.getOrCreate('node', '', str(getField(pod, 'spec.nodeName')));
    this.graph.addEdge(podVertex, node, node);
    // A node may create mirror pods: one must never grant it anything beyond itself
    // (NodeRestriction refuses such pods too; this is kube's defense in depth).
    if (isMirrorPod(pod)) return;
    const link = (type: VertexType, refName: string): void => {
      this.graph.addEdge(this.graph.getOrCreate(type, namespace, refName), podVertex, node);
    };
    const serviceAccount = str(getField(pod, 'spec.serviceAccountName'));
    if (serviceAccount !== '') link('serviceAccount', serviceAccount);
    for (const secret of podSecretNames(pod)) link('secret', secret);
    for (const configMap of podConfigMapNames(pod)) link('configmap', configMap);
    for (const claim of podClaimNames(pod)) link('pvc', claim);
    for (const claim of podResourceClaimNames(pod)) link('resourceclaim', claim);
  }

  deletePod(namespace: string, name: string): void {
    this.graph.deleteVertex('pod', namespace, name);
  }

  /** kube's AddPV: its Node is not known here (claim -> pod -> node comes from pods), so its edges carry none. */
  addPV(pv: KubeObject): void {
    const name = pv.metadata.name ?? '';
    this.graph.deleteVertex('pv', '', name);
    const claimRef = getField(pv, 'spec.claimRef');
    if (claimRef === undefined || claimRef === null) return;
    const pvVertex = this.graph.getOrCreate('pv', '', name);
    this.graph.addEdge(pvVertex, this.graph.getOrCreate('pvc', str(ownField(claimRef, 'namespace')), str(ownField(claimRef, 'name'))));
    for (const secret of pvKubeletSecrets(pv)) this.graph.addEdge(this.graph.getOrCreate('secret', secret.namespace, secret.name), pvVertex);
  }

  deletePV(name: string): void {
    this.graph.deleteVertex('pv', '', name);
  }

  addVolumeAttachment(name: string, nodeName: string): void {
    this.linkToNode('volumeattachment', name, nodeName);
  }

  deleteVolumeAttachment(name: string): void {
    this.graph.deleteVertex('volumeattachment', '', name);
  }

  addResourceSlice(name: string, nodeName: string): void {
    this.linkToNode('resourceslice', name, nodeName);
  }

  deleteResourceSlice(name: string): void {
    this.graph.deleteVertex('resourceslice', '', name);
  }

  /** kube's hasPathFrom: is there a path from the object to the node's vertex? */
  hasPathFrom(nodeName: string, type: VertexType, namespace: string, name: string): boolean {
    const node = this.graph.get('node', '', nodeName);
    const start = this.graph.get(type, namespace, name);
    return node !== undefined && start !== undefined && this.graph.reaches(start, node);
  }

  /** How many vertices of a type the graph holds (tests watch orphans go). */
  count(type: VertexType): number {
    return this.graph.count(type);
  }

  private linkToNode(type: VertexType, name: string, nodeName: string): void {
    this.graph.deleteVertex(type, '', name);
    if (nodeName === '') return;
    const node = this.graph.getOrCreate('node', '', nodeName);
    this.graph.addEdge(this.graph.getOrCreate(type, '', name), node, node);
  }
}
