/** Findings the engine and a construct would both report: printed once, by the construct. */
import { IConstruct } from 'constructs';
import { Finding } from '../analysis/finding';

/**
 * The findings no construct already reports on itself: a construct whose own validation names the same rule (a route
 * construct's LKD-ROUTE-025) says it once, at its path, in its words; the engine's copy would repeat it with the App's
 * construct path `[]`.
 */
export function withoutConstructDuplicates(root: IConstruct, findings: Finding[]): Finding[] {
  let byPath: Map<string, IConstruct> | undefined;
  const own = new Map<string, string[]>();
  return findings.filter((f) => {
    if (f.constructPath === undefined) return true;
    byPath ??= new Map(root.node.findAll().map((c) => [c.node.path, c]));
    let messages = own.get(f.constructPath);
    if (messages === undefined) {
      messages = byPath.get(f.constructPath)?.node.validate() ?? [];
      own.set(f.constructPath, messages);
    }
    return !messages.some((m) => m.startsWith(`${f.ruleId}:`));
  });
}
