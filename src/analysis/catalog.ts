/**
 * The one catalog of codes a user can see: every rule ID the engine reports, the construct-only input codes, and the
 * IDs that were retired (never reused for another meaning). Tests hold the rule pack, the rule files and
 * docs/rules.md to it, so an ID cannot appear, change meaning or disappear unnoticed.
 */

/** Codes constructs raise for input formats, not tied to an engine rule (see core/errors.ts InputRule). */
export const INPUT_CODES: Readonly<Record<string, string>> = {
  'LKD-INPUT-001': 'a name or label that Kubernetes would refuse',
  'LKD-INPUT-002': 'a port outside 1..65535 or a malformed port name',
  'LKD-INPUT-003': 'a required value is missing',
  'LKD-INPUT-004': 'values that contradict each other',
  'LKD-INPUT-005': 'a duration Linkerd cannot read',
  'LKD-INPUT-006': 'a value outside its allowed range or set',
  'LKD-INPUT-007': 'a file the checks cannot read (missing, unreadable, not YAML, not a Kubernetes object)',
  'LKD-INPUT-008': 'a setting of the cdk8s-cli plugin entry that is unknown or malformed',
};

/** IDs no longer reported, with what replaced them. An ID here is never given to a new rule. */
export const RETIRED_IDS: Readonly<Record<string, string>> = {
  'LKD-CP-006': 'never reported (was reserved for private keys in chart values; LKD-CERT-005 and LKD-SEC-001 cover them)',
};
