// The slice of @marcbachmann/cel-js's parsed AST that kapi reads: node kinds,
// children, the type the checker settled on, and the macro expansion the parser
// attached (comprehensions for all/exists/map/filter, a hook object for has/bind).
export interface AstNode {
  readonly op: string;
  args: unknown;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
  readonly checkedType?: { readonly name: string; readonly kind: string };
  readonly meta: { readonly alternate?: AstNode; readonly macro?: MacroHook };
  evaluate(ev: unknown, ast: AstNode, ctx: unknown): unknown;
}

export interface MacroHook {
  readonly args?: readonly AstNode[];
  readonly val?: AstNode;
  readonly exp?: AstNode;
  readonly var?: string;
}

export interface ComprehensionArgs {
  readonly iterable: AstNode;
  readonly init: AstNode;
  readonly step: AstNode;
  readonly iterVarName: string;
  readonly kind?: string;
}

export function isAstNode(v: unknown): v is AstNode {
  return typeof v === 'object' && v !== null && typeof (v as { op?: unknown }).op === 'string' && 'args' in v;
}

/** Every node reachable from `root`, including macro expansions, each once. */
export function allNodes(root: AstNode): AstNode[] {
  const seen = new Set<AstNode>();
  const out: AstNode[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (isAstNode(v)) {
      if (seen.has(v)) return;
      seen.add(v);
      out.push(v);
      visit(v.args);
      const meta = v.meta;
      if (meta.alternate !== undefined) visit(meta.alternate);
      if (meta.macro !== undefined) visit([meta.macro.args, meta.macro.val, meta.macro.exp]);
      return;
    }
    // Comprehension arguments are a plain record of nodes.
    if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
      for (const k of Object.keys(v)) visit((v as Record<string, unknown>)[k]);
    }
  };
  visit(root);
  return out;
}

/**
 * How deep the tree nests, walked without recursion so a hostile expression
 * (50,000 `!`) cannot overflow the stack while being measured.
 */
export function astDepth(root: AstNode): number {
  let max = 0;
  const seen = new Set<unknown>();
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth]);
    } else if (isAstNode(v)) {
      if (seen.has(v)) continue;
      seen.add(v);
      const here = depth + 1;
      if (here > max) max = here;
      stack.push([v.args, here]);
      const meta = v.meta;
      if (meta.alternate !== undefined) stack.push([meta.alternate, here]);
      if (meta.macro !== undefined) stack.push([[meta.macro.args, meta.macro.val, meta.macro.exp], here]);
    } else if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
      for (const k of Object.keys(v)) stack.push([(v as Record<string, unknown>)[k], depth]);
    }
  }
  return max;
}

/** The name and receiver of a call node (`rcall` is a method call, `call` a global one). */
export function callParts(node: AstNode): { name: string; target?: AstNode; args: readonly AstNode[] } | undefined {
  if (node.op === 'call') {
    const [name, args] = node.args as [string, AstNode[]];
    return { name, args };
  }
  if (node.op === 'rcall') {
    const [name, target, args] = node.args as [string, AstNode, AstNode[]];
    return { name, target, args };
  }
  return undefined;
}
