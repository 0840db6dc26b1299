/** The rules about injection and proxy configuration (LKD-MESH-*): one file per rule, listed here once. */
import { configAnnotationsRule } from './config-annotations';
import { duplicateObjectsRule } from './duplicate-objects';
import { externalWorkloadEndpointsRule } from './external-workload-endpoints';
import { jobSidecarRule } from './job-sidecar';
import { missingServiceAccount } from './missing-service-account';
import { networkPolicyRule } from './network-policy';
import { opaquePortsRule } from './opaque-ports';
import { podHazardsRule } from './pod-hazards';
import { podSecurityAdmissionRule } from './pod-security-admission';
import { proxyPortCollisionRule } from './proxy-port-collision';
import { skippedServerPortRule } from './skipped-server-port';
import { targetNotInjectedRule } from './target-not-injected';
import { unknownKindsRule } from './unknown-kinds';
import { wrongMetadataRule } from './wrong-metadata';
import { yaml11ReadingsRule } from './yaml11-readings';
import { Rule } from '../../rule';

export const MESH_RULES: Rule[] = [
  configAnnotationsRule, duplicateObjectsRule, externalWorkloadEndpointsRule, jobSidecarRule, missingServiceAccount, networkPolicyRule,
  opaquePortsRule, podHazardsRule, podSecurityAdmissionRule, proxyPortCollisionRule, skippedServerPortRule, targetNotInjectedRule, unknownKindsRule,
  wrongMetadataRule, yaml11ReadingsRule,
];
