/**
 * What Linkerd's policy validator refuses, reported as what then happens to it. Where the webhook runs, the object is
 * rejected at apply. Where its selectors leave the object out (model/webhooks.ts), it is applied unchecked and meets
 * the policy controller as it is, which drops it or never uses it: the same mistake, another effect.
 */
import { FindingEffect } from '../finding';
import { IndexedObject } from '../model/mesh-index';
import { policyValidatorSkips } from '../model/webhooks';
import { RuleContext } from '../rule';

export interface Refusal {
  /** What is wrong, e.g. `spec.rules has 2 rules`. */
  readonly problem: string;
  /** What the webhook does, where it runs. */
  readonly rejected: string;
  /** How the message names the object, e.g. `the TCPRoute`. */
  readonly noun: string;
  /** What the policy controller does with the object applied unchecked, where the webhook does not run. */
  readonly ignored: string;
}

/** Reports one refusal on `subject`, rejected or ignored as the policy validator's selectors decide. */
export function reportRefusal(ctx: RuleContext, subject: IndexedObject, refusal: Refusal): void {
  const skipped = policyValidatorSkips(ctx.index, subject);
  if (skipped === undefined) {
    ctx.report(subject, `${refusal.problem}; ${refusal.rejected}`, { effect: FindingEffect.REJECTED });
  } else {
    ctx.report(subject, `${refusal.problem}; ${skipped}, so ${refusal.noun} is applied unchecked, ${refusal.ignored}`, { effect: FindingEffect.IGNORED });
  }
}
