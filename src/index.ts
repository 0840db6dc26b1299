// L1: generated from the Linkerd 2.20 and Gateway API v1.2.1 CRDs (scripts/import-crds.ts).
export * as linkerdPolicy from './imports/policy.linkerd.io';
export * as gatewayApi from './imports/gateway.networking.k8s.io';

export * from './base';

// L2 by domain.
export * from './core/default-inbound-policy';
export * from './workloads/proxy-config';
export * from './workloads/meshed-namespace';
export * from './workloads/meshed-deployment';
export { MeshVerification, MeshVerificationProps, VerificationProtocol } from './workloads/verification/mesh-verification';
export * from './policy/pod-selection';
export * from './policy/server';
export * from './policy/authentication';
export * from './policy/authorization-policy';
export * from './policy/server-access';
export * from './policy/server-route';
export * from './policy/probe-access';
export * from './policy/rate-limit-policy';
export * from './policy/rate-budget';
export * from './policy/egress-network';
export * from './routing/service-reference';
export * from './routing/route-backend';
export * from './routing/matches';
export * from './routing/retry';
export * from './routing/route-base';
export * from './routing/http-route';
export * from './routing/grpc-route';
export * from './routing/traffic-split';
export { UnmatchedRequests } from './routing/unmatched';

// Control plane: pinned versions, install values, identity (trust anchors, rotation) and delivery.
export { LinkerdVersion, LinkerdChartVersionOptions } from './core/versions';
export * from './control-plane/install';
export * from './control-plane/identity';
export * from './control-plane/extensions';
export { LinkerdDelivery } from './control-plane/delivery/delivery';
export { DeliveryForm } from './control-plane/delivery/form';
export { HelmDeliveryOptions } from './control-plane/delivery/helm';
export { ArgoCdDeliveryOptions } from './control-plane/delivery/argo-cd';
export { FluxDeliveryOptions, FluxValuesReference, FluxValuesKind } from './control-plane/delivery/flux';
export { RunbookOptions } from './control-plane/delivery/runbooks';

// Multicluster: the linkerd-multicluster extension, Links, exported Services, fleets and fleet-wide anchor rotation.
export * from './multicluster';

// Checks.
export { Severity, Finding, FindingEffect, FindingResource, SuppressedFinding } from './analysis/finding';
export * from './checks/mesh-checks';
export * from './frontends/reachability';
// TypeScript/JavaScript only (jsii does not carry functions to other languages; there the coded error is an exception).
export { runOrExit } from './frontends/run-or-exit';
export { LinkerdValidation } from './frontends/plugin';
