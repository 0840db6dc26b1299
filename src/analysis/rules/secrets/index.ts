/** The rules about secrets in the output (LKD-SEC-*): one file per rule, listed here once. */
import { secretsInOutput } from './secrets-in-output';
import { Rule } from '../../rule';

export const SECRET_RULES: Rule[] = [
  secretsInOutput,
];
