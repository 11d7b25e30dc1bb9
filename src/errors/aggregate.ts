// apimachinery's error aggregates as text, which kube's messages embed: one error
// bare, several in brackets joined by ", ". NewAggregate keeps every error;
// field.ErrorList.ToAggregate drops repeated messages first.

/** utilerrors.NewAggregate(errs).Error(). */
export function aggregateErrors(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

/** field.ErrorList.ToAggregate().Error(): repeated messages once. */
export function aggregateUnique(messages: readonly string[]): string {
  return aggregateErrors([...new Set(messages)]);
}
