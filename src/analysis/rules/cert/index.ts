/** The rules about certificates and trust material (LKD-CERT-*): one file per rule, listed here once. */
import { certificateAlgorithms } from './algorithms';
import { certificateChain } from './chain';
import { certificateLifetimes } from './lifetimes';
import { privateKeyInOutput } from './private-keys';
import { certificateValidity } from './validity';
import { Rule } from '../../rule';

export const CERT_RULES: Rule[] = [
  certificateAlgorithms, certificateChain, certificateLifetimes, privateKeyInOutput, certificateValidity,
];
