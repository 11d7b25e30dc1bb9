// The one error a bad command line produces: one line per problem, each naming
// its flag; main prints each as `kapi: <line>` and exits 1.
export class OptionsError extends Error {
  override readonly name = 'OptionsError';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}
