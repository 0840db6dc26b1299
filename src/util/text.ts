/** Text helpers for messages, with no Linkerd knowledge. */
import { compareStrings } from './compare';

/** At most `max` items, then "and N more", so messages stay readable on large outputs. */
export function listSome(items: string[], max = 5): string {
  // Sorted, so a message does not depend on the order the input documents came in.
  const unique = [...new Set(items)].sort(compareStrings);
  return unique.length <= max ? unique.join(', ') : `${unique.slice(0, max).join(', ')} and ${unique.length - max} more`;
}
