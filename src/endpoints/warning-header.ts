// Warning headers (RFC 7234 §5.5 `299 - "text"`) built the way kube-apiserver's
// warning recorder builds them (k8s.io/apiserver/pkg/endpoints/filters/warning.go
// with apimachinery's net.NewWarningHeader): empty and repeated texts are dropped,
// a text holding a control character is dropped whole (never escaped), `"` and `\`
// are backslash-escaped, and once the texts pass 4096 runes in total every text is
// cut to 256 runes and later ones are dropped when the budget is spent.
//
// Go writes header strings as raw bytes, so a client receives the text as UTF-8.
// Node writes header strings as latin1 and refuses characters above U+00FF, so the
// value carries the UTF-8 bytes as latin1 code units: the bytes on the wire (HTTP/1.1
// and HTTP/2 alike) are then exactly the ones kube-apiserver sends.

const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;

/** unicode.IsControl: C0 controls, DEL and the C1 block (tab, CR, LF and NUL included). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function runes(text: string): string[] {
  return Array.from(text);
}

/** `299 - "text"` with `"` and `\` escaped, as UTF-8 bytes in latin1 code units; undefined when kube drops it. */
function headerFor(text: string): string | undefined {
  if (CONTROL.test(text)) return undefined;
  const quoted = `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  // A lone surrogate becomes U+FFFD here, as Go's JSON decoder would already have made it.
  return Buffer.from(quoted, 'utf8').toString('latin1');
}

/** The Warning header values for a request's warnings, in the order they were added. */
export function warningHeaderValues(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const ordered: string[] = [];
  let values: string[] = [];
  let written = 0;
  let truncating = false;
  for (const original of texts) {
    if (original === '' || seen.has(original)) continue;
    if (truncating && written >= TRUNCATE_AT_TOTAL_RUNES) break;
    seen.add(original);
    ordered.push(original);
    let text = original;
    let length = runes(text).length;
    if (truncating && length > TRUNCATE_ITEM_RUNES) {
      text = runes(text).slice(0, TRUNCATE_ITEM_RUNES).join('');
      length = TRUNCATE_ITEM_RUNES;
    }
    const header = headerFor(text);
    if (header === undefined) continue;
    if (truncating || written + length <= TRUNCATE_AT_TOTAL_RUNES) {
      written += length;
      values.push(header);
      continue;
    }
    // Over the budget for the first time: replay everything so far, each cut to 256 runes.
    truncating = true;
    written = 0;
    values = [];
    for (const earlier of ordered) {
      const cut = runes(earlier).slice(0, TRUNCATE_ITEM_RUNES);
      const replayed = headerFor(cut.join(''));
      if (replayed === undefined) continue;
      written += cut.length;
      values.push(replayed);
    }
  }
  return values;
}

/** A header value as the client reads it back: the latin1 code units are UTF-8 bytes. */
export function decodeHeaderText(value: string): string {
  return Buffer.from(value, 'latin1').toString('utf8');
}
