// The node authorizer's graph (kube's plugin/pkg/auth/authorizer/node/graph.go):
// vertices are API objects, and every edge points toward a Node (secret -> pod ->
// node, secret -> pv -> pvc -> pod -> node). Edges that know their Node count in
// their source's destination index, so most checks are one map lookup; only edges
// added before their Node is known (secret -> pv, pv -> pvc) are walked.

/** kube's vertexTypes, spelled as kube prints them. */
export type VertexType = 'configmap' | 'resourceslice' | 'node' | 'pod' | 'pvc' | 'pv' | 'resourceclaim' | 'secret' | 'volumeattachment' | 'serviceAccount';

interface Vertex {
  readonly type: VertexType;
  readonly namespace: string;
  readonly name: string;
  /** Edges from this vertex: target -> the Node the edge leads to (undefined: not known). */
  readonly out: Map<Vertex, Vertex | undefined>;
  readonly in: Map<Vertex, Vertex | undefined>;
  /** Node vertex -> how many of this vertex's out-edges lead to it. */
  readonly destinations: Map<Vertex, number>;
}

/**
 * kube's vertexTypeWithAuthoritativeIndex: vertices whose out-edges are all
 * destination edges, so their index alone answers. Secrets and PVs also have
 * edges added before their Node is known and need the walk.
 */
const AUTHORITATIVE: ReadonlySet<VertexType> = new Set<VertexType>(['configmap', 'resourceslice', 'pod', 'pvc', 'resourceclaim', 'volumeattachment', 'serviceAccount']);

/** Vertices and edges with kube's delete semantics; NodeGraph (node-graph.ts) adds the object-level operations. */
export class Graph {
  // type -> namespace -> name: nested Maps, so a name with "/" or "__proto__" is only ever a key.
  private readonly vertices = new Map<VertexType, Map<string, Map<string, Vertex>>>();

  get(type: VertexType, namespace: string, name: string): Vertex | undefined {
    return this.vertices.get(type)?.get(namespace)?.get(name);
  }

  getOrCreate(type: VertexType, namespace: string, name: string): Vertex {
    const found = this.get(type, namespace, name);
    if (found !== undefined) return found;
    let byNamespace = this.vertices.get(type);
    if (byNamespace === undefined) this.vertices.set(type, (byNamespace = new Map()));
    let byName = byNamespace.get(namespace);
    if (byName === undefined) byNamespace.set(namespace, (byName = new Map()));
    const vertex: Vertex = { type, namespace, name, out: new Map(), in: new Map(), destinations: new Map() };
    byName.set(name, vertex);
    return vertex;
  }

  /** Sets the edge from -> to, replacing one already there (gonum's SetEdge). */
  addEdge(from: Vertex, to: Vertex, destination?: Vertex): void {
    if (from.out.has(to)) this.forgetDestination(from, from.out.get(to));
    from.out.set(to, destination);
    to.in.set(from, destination);
    if (destination !== undefined) from.destinations.set(destination, (from.destinations.get(destination) ?? 0) + 1);
  }

  /**
   * Removes a vertex and every neighbor left without edges by it (kube's
   * deleteVertexLocked): deleting the last pod that used a secret removes the
   * secret's vertex, and a node's vertex goes with its last pod.
   */
  deleteVertex(type: VertexType, namespace: string, name: string): void {
    const vertex = this.get(type, namespace, name);
    if (vertex === undefined) return;
    const orphans = [...vertex.out.keys(), ...vertex.in.keys()].filter((n) => n.out.size + n.in.size === 1);
    this.remove(vertex);
    for (const orphan of orphans) this.remove(orphan);
  }

  /**
   * Whether `start` reaches `node`: its destination index, then the edges whose
   * Node was unknown when added. Destination edges to other Nodes are never
   * followed (kube's EdgeFilter), so the walk stays within what leads here.
   */
  reaches(start: Vertex, node: Vertex): boolean {
    if (start.destinations.has(node)) return true;
    if (AUTHORITATIVE.has(start.type)) return false;
    const seen = new Set<Vertex>([start]);
    const stack = [start];
    for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
      if (v === node || v.destinations.has(node)) return true;
      for (const [to, destination] of v.out) {
        if (destination === undefined && !seen.has(to)) {
          seen.add(to);
          stack.push(to);
        }
      }
    }
    return false;
  }

  /** Vertices of a type, for tests and diagnostics. */
  count(type: VertexType): number {
    let n = 0;
    for (const byName of this.vertices.get(type)?.values() ?? []) n += byName.size;
    return n;
  }

  private remove(vertex: Vertex): void {
    for (const to of vertex.out.keys()) to.in.delete(vertex);
    for (const [from, destination] of vertex.in) {
      from.out.delete(vertex);
      this.forgetDestination(from, destination);
    }
    const byNamespace = this.vertices.get(vertex.type);
    const byName = byNamespace?.get(vertex.namespace);
    if (byName?.get(vertex.name) !== vertex) return;
    byName.delete(vertex.name);
    if (byName.size === 0) byNamespace!.delete(vertex.namespace);
  }

  private forgetDestination(from: Vertex, destination: Vertex | undefined): void {
    if (destination === undefined) return;
    const left = (from.destinations.get(destination) ?? 0) - 1;
    if (left > 0) from.destinations.set(destination, left);
    else from.destinations.delete(destination);
  }
}

export type { Vertex };
