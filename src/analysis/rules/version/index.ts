/** The rules about versions (LKD-VER-*): one file per rule, listed here once. */
import { pinnedVersions } from './pinned';
import { proxyVersionSkew } from './proxy-skew';
import { Rule } from '../../rule';

export const VERSION_RULES: Rule[] = [
  pinnedVersions, proxyVersionSkew,
];
