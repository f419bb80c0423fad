/** Each view's JSON, written once: a view object is never changed (viewOf, the read store's rows). */
const viewTexts = new WeakMap<object, string>();

/**
 * `JSON.stringify(view)`, kept with the view: a command's answer, the read side's row of the same
 * state and every GET of it share one serialisation.
 */
export function viewText(view: Record<string, unknown>): string {
  let text = viewTexts.get(view);
  if (text === undefined) viewTexts.set(view, (text = JSON.stringify(view)));
  return text;
}
