/** The rules about retries, timeouts and failure accrual (LKD-RETRY-*): one file per rule, listed here once. */
import { annotationGrammar } from './annotation-grammar';
import { failureAccrual } from './failure-accrual';
import { misplacedAnnotations } from './misplaced-annotations';
import { nonIdempotentRetries } from './non-idempotent';
import { retryBudget } from './retry-budget';
import { routeReplacesService } from './route-replaces-service';
import { unknownRetryKeys } from './unknown-keys';
import { Rule } from '../../rule';

export const RETRY_RULES: Rule[] = [
  annotationGrammar, failureAccrual, misplacedAnnotations, nonIdempotentRetries, retryBudget, routeReplacesService, unknownRetryKeys,
];
