// What a failed compile reports, in its own file so that environment.ts (parse and
// type-check) and program.ts (cost and regex checks) both raise it without
// importing each other.
export interface SourcePosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** A rule that does not parse, does not type-check, or costs too much. */
export class CelCompileError extends Error {
  constructor(
    readonly summary: string,
    readonly expression: string,
    readonly position: SourcePosition | undefined,
  ) {
    super(position === undefined ? summary : `${summary} (at ${position.line}:${position.column})`);
  }
}

/** Line and column (1-based) of an offset into the expression. */
export function position(expression: string, offset: number): SourcePosition {
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  return { offset, line, column: offset - before.lastIndexOf('\n') };
}
