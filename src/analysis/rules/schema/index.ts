/** The rules about what the API server refuses whatever the kind (LKD-SCHEMA-*); LKD-SCHEMA-001 is added by `--crds`. */
import { metadataTypesRule } from './metadata-types';
import { Rule } from '../../rule';

export const SCHEMA_RULES: Rule[] = [metadataTypesRule];
