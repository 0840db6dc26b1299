/** The fleet rules (LKD-MC-*): they read every cluster of a fleet at once; one file per rule, listed here once. */
import { crossClusterCallsRule } from './cross-cluster-calls';
import { exportLabelRule } from './export-label';
import { linkTargetsRule } from './link-targets';
import { remoteIdentitiesRule } from './remote-identities';
import { sharedAnchorsRule } from './shared-anchors';
import { sharedIssuerRule } from './shared-issuer';
import { FleetRule } from '../../fleet/fleet-rule';

export const MULTICLUSTER_RULES: FleetRule[] = [
  crossClusterCallsRule, exportLabelRule, linkTargetsRule, remoteIdentitiesRule, sharedAnchorsRule, sharedIssuerRule,
];
