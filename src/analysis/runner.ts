/**
 * The one rule runner, for every kind of rule (a cluster's, a fleet's, LKD-SCHEMA-001): each rule gets a context that
 * reports through one function, which turns a report into a Finding, drops findings about inventory objects (they are
 * not part of the output) and hands the rest to the caller's sink (which applies suppressions).
 */
import { Finding } from './finding';
import { IndexedObject } from './model/mesh-index';
import { ReportOptions, Rule } from './rule';

/** A finding of any rule (single-cluster or fleet) about one object. */
export function toFinding(rule: Pick<Rule<unknown>, 'id' | 'severity' | 'doc' | 'effects'>, subject: IndexedObject, message: string,
  options: ReportOptions = {}): Finding {
  // An effect the rule does not declare is dropped: what reachability lists as ignored comes only from declared rules.
  const effect = options.effect !== undefined && rule.effects?.includes(options.effect) ? options.effect : undefined;
  return {
    ruleId: rule.id,
    severity: options.severity ?? rule.severity,
    resource: subject.id,
    message,
    fix: options.fix ?? rule.doc.fix,
    constructPath: subject.source.constructPath,
    file: subject.source.file,
    line: subject.source.line,
    ...(effect ? { effect } : {}),
  };
}

/** How a rule's context reports a finding; a fleet rule's names the cluster the subject belongs to. */
export type Reporter = (subject: IndexedObject, message: string, options?: ReportOptions, cluster?: string) => void;

/**
 * Runs the rules in order. `contextFor` builds each rule's context around the reporter; `sink` receives every finding
 * about an object of the output (a fleet rule's with its cluster first), with the object it is about.
 */
export function runRules<C>(rules: readonly Rule<C>[], contextFor: (report: Reporter) => C,
  sink: (finding: Finding, subject: IndexedObject) => void): void {
  for (const rule of rules) {
    rule.check(contextFor((subject, message, options, cluster) => {
      if (subject.inventory) return;
      const finding = toFinding(rule, subject, message, options);
      sink(cluster === undefined ? finding : { cluster, ...finding }, subject);
    }));
  }
}
