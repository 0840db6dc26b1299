/** The rules about capacity (LKD-CAP-*): one file per rule, listed here once. */
import { localRateLimits } from './local-rate-limits';
import { retryAmplification } from './retry-amplification';
import { Rule } from '../../rule';

export const CAPACITY_RULES: Rule[] = [localRateLimits, retryAmplification];
