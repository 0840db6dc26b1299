/**
 * Suppressions live on the object itself, as annotations, so the audit trail survives into the YAML and every
 * front-end (constructs, CLI, plugin) honours the same ones. They are a trust boundary: the teams that write manifests
 * are not always the team that gates merges on the checks, so a suppression applies only to the object that carries it,
 * needs a reason a reviewer can read, is listed in every report, and some rules cannot be suppressed at all.
 */
import { KubeObject, annotationsOf } from './model/manifest';
import { IGNORE_CHECK_ANNOTATION_PREFIX, SUPPRESS_ANNOTATION } from '../core/vocabulary';
import { compareStrings } from '../util/compare';

export { IGNORE_CHECK_ANNOTATION_PREFIX, SUPPRESS_ANNOTATION };

export interface Suppression {
  readonly ruleId: string;
  readonly reason: string;
}

export interface ParsedSuppressions {
  readonly suppressions: Suppression[];
  /** Why an annotation (or an entry of the list) could not be used, for each that could not. */
  readonly problems: string[];
}

/** A rule ID as every rule has one: `LKD-<AREA>-<three digits>`. */
const RULE_ID = /^LKD-[A-Z]+-\d{3}$/;

/** The rule whose findings report unusable suppressions; it cannot be suppressed itself. */
export const SUPPRESSION_RULE_ID = 'LKD-META-001';

/**
 * Rules no suppression silences, whatever the options: LKD-META-001 (a broken suppression), and LKD-MESH-009, which is
 * always reported on the second definition of an object; the copy that carries the suppression is the one in doubt.
 */
export const NEVER_SUPPRESSED: readonly string[] = [SUPPRESSION_RULE_ID, 'LKD-MESH-009'];

export function isRuleId(value: unknown): value is string {
  return typeof value === 'string' && RULE_ID.test(value);
}

/**
 * Characters that print as nothing: spaces and separators, controls, format characters (zero-width spaces and joiners,
 * bidi marks, the BOM), variation selectors, and the fillers that are letters to Unicode but blank on screen.
 */
const INVISIBLE = /[\s\p{Z}\p{Cc}\p{Cf}\p{Mn}\p{Me}\u115F\u1160\u3164\uFFA0\u2800]/gu;
const VISIBLE_WORD = /[\p{L}\p{N}]/u;

/** The reason as a reviewer sees it: invisible characters removed. */
function visibleText(reason: string): string {
  return reason.replace(INVISIBLE, '');
}

/** Why `reason` cannot justify a suppression of `ruleId`, or undefined when it can. */
export function reasonProblem(ruleId: string, reason: unknown): string | undefined {
  if (typeof reason !== 'string' || reason.trim() === '') return `suppression of ${ruleId} has no reason; every suppression must say why`;
  const visible = visibleText(reason);
  if (visible.length < 3 || !VISIBLE_WORD.test(visible)) {
    const shown = JSON.stringify(reason).replace(INVISIBLE, (c) => (c === ' ' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
    return `suppression of ${ruleId} has no readable reason (${shown} shows no letters or digits once invisible and space `
      + 'characters are removed); every suppression must say why';
  }
  return undefined;
}

function listEntries(raw: string): ParsedSuppressions {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { suppressions: [], problems: [`annotation ${SUPPRESS_ANNOTATION} is not valid JSON`] };
  }
  if (!Array.isArray(parsed)) return { suppressions: [], problems: [`annotation ${SUPPRESS_ANNOTATION} must be a JSON list`] };
  const suppressions: Suppression[] = [];
  const problems: string[] = [];
  for (const item of parsed) {
    const ruleId = (item as any)?.ruleId;
    const reason = (item as any)?.reason;
    const problem = isRuleId(ruleId) ? reasonProblem(ruleId, reason)
      : `suppression ${JSON.stringify(item)} has no valid ruleId (like LKD-ROUTE-001)`;
    if (problem) problems.push(problem);
    else suppressions.push({ ruleId, reason: reason.trim() });
  }
  return { suppressions, problems };
}

/** The `ignore-check.cdk8s-linkerd.io/<RULE-ID>: "<reason>"` annotations, in key order. */
function ignoreCheckEntries(annotations: Record<string, unknown>): ParsedSuppressions {
  const suppressions: Suppression[] = [];
  const problems: string[] = [];
  const keys = Object.keys(annotations).filter((k) => k.startsWith(IGNORE_CHECK_ANNOTATION_PREFIX)).sort(compareStrings);
  for (const key of keys) {
    const ruleId = key.slice(IGNORE_CHECK_ANNOTATION_PREFIX.length);
    const reason = annotations[key];
    const problem = isRuleId(ruleId) ? reasonProblem(ruleId, reason)
      : `annotation ${JSON.stringify(key)} does not end in a rule ID (like ${IGNORE_CHECK_ANNOTATION_PREFIX}LKD-ROUTE-001)`;
    if (problem) problems.push(problem);
    else suppressions.push({ ruleId, reason: (reason as string).trim() });
  }
  return { suppressions, problems };
}

/**
 * Whether any annotation could be a suppression (the list, or one starting like an ignore-check annotation). Most
 * objects carry none: this one pass over the keys spares them the sorted copy and the lists below.
 */
function carriesSuppressions(annotations: Record<string, unknown>): boolean {
  if (Object.prototype.hasOwnProperty.call(annotations, SUPPRESS_ANNOTATION)) return true;
  for (const key in annotations) if (key.startsWith(IGNORE_CHECK_ANNOTATION_PREFIX)) return true;
  return false;
}

/** What most objects carry: shared, as every object of an analysis is read here. */
const NOTHING_PARSED: ParsedSuppressions = { suppressions: [], problems: [] };

/** Reads an object's suppressions: the JSON list annotation, then one annotation per rule. */
export function parseSuppressions(obj: KubeObject): ParsedSuppressions {
  const annotations = annotationsOf(obj);
  if (!carriesSuppressions(annotations)) return NOTHING_PARSED;
  const raw = Object.prototype.hasOwnProperty.call(annotations, SUPPRESS_ANNOTATION) ? annotations[SUPPRESS_ANNOTATION] : undefined;
  const list = raw === undefined ? { suppressions: [], problems: [] }
    : typeof raw === 'string' ? listEntries(raw) : { suppressions: [], problems: [`annotation ${SUPPRESS_ANNOTATION} must be a JSON list in a string`] };
  const single = ignoreCheckEntries(annotations);
  return { suppressions: [...list.suppressions, ...single.suppressions], problems: [...list.problems, ...single.problems] };
}

/**
 * What the object's suppressions do: the reason per rule they silence, and why the others are not applied (a rule no
 * one may suppress, or one the analysis was told to keep unsuppressible).
 */
export interface ObjectSuppressions {
  readonly reasons: ReadonlyMap<string, string>;
  readonly refused: readonly string[];
  readonly problems: readonly string[];
}

/** What an object without suppressions has (most objects): one shared answer. */
export const NO_SUPPRESSIONS: ObjectSuppressions = { reasons: new Map(), refused: [], problems: [] };

/** The object's suppressions under the analysis' `unsuppressible` rule IDs. */
export function objectSuppressions(obj: KubeObject, unsuppressible: ReadonlySet<string>): ObjectSuppressions {
  const parsed = parseSuppressions(obj);
  if (parsed.suppressions.length === 0 && parsed.problems.length === 0) return NO_SUPPRESSIONS;
  const reasons = new Map<string, string>();
  const refused: string[] = [];
  for (const s of parsed.suppressions) {
    if (NEVER_SUPPRESSED.includes(s.ruleId)) {
      refused.push(`suppression of ${s.ruleId} is not applied: ${s.ruleId === SUPPRESSION_RULE_ID ? 'a broken suppression cannot be silenced'
        : 'LKD-MESH-009 is reported on the second definition of an object, and a copy cannot vouch for itself'}`);
    } else if (unsuppressible.has(s.ruleId)) {
      refused.push(`suppression of ${s.ruleId} is not applied: this analysis makes ${s.ruleId} unsuppressible (option unsuppressible)`);
    } else if (!reasons.has(s.ruleId)) {
      reasons.set(s.ruleId, s.reason);
    }
  }
  return { reasons, refused, problems: parsed.problems };
}

/** Serializes suppressions for the annotation, sorted so output is deterministic. */
export function formatSuppressions(suppressions: Suppression[]): string {
  const sorted = [...suppressions].sort((a, b) => compareStrings(a.ruleId, b.ruleId) || compareStrings(a.reason, b.reason));
  return JSON.stringify(sorted.map((s) => ({ ruleId: s.ruleId, reason: s.reason })));
}
