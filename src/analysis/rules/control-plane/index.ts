/** The rules about the control-plane install (LKD-CP-*): one file per rule, listed here once. */
import { controlPlaneChartValues } from './chart-values';
import { externalCaWithoutTrustRoots } from './external-ca';
import { controlPlaneGatewayApi } from './gateway-api-version';
import { controlPlaneHa } from './high-availability';
import { identityValues } from './identity-values';
import { kubernetesVersion } from './kubernetes-version';
import { webhookFailurePolicyIgnore } from './webhook-failure-policy';
import { Rule } from '../../rule';

export const CONTROL_PLANE_RULES: Rule[] = [
  controlPlaneChartValues, externalCaWithoutTrustRoots, controlPlaneGatewayApi, controlPlaneHa, identityValues, kubernetesVersion,
  webhookFailurePolicyIgnore,
];
