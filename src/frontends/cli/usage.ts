/** Help texts, kept apart from the logic so they read like the documentation they are. */
import { DEFAULT_INBOUND_POLICIES } from '../../analysis/options';

export const MAIN_USAGE = `Usage: cdk8s-linkerd <command> [options]

Static checks for Linkerd 2.20 and Gateway API manifests.

Commands:
  analyze [options] PATH...   Check YAML files and folders (recursively *.yaml, *.yml; "-" reads stdin)
  rules [--format text|json]  List the rules: ID, severity and title
  import [--out FILE] PATH... Write TypeScript that rebuilds existing YAML with cdk8s-linkerd constructs

Options:
  --help      Show help (also: cdk8s-linkerd analyze --help)
  --version   Print the version

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above --fail-on, 2 bad usage or unreadable input.
`;

export const ANALYZE_USAGE = `Usage: cdk8s-linkerd analyze [options] PATH...

Options:
  --format text|json|sarif|mermaid   Output format (default: text)
  --fail-on error|warning            Lowest severity that makes the exit code 1 (default: error)
  --crds DIR                         Also validate objects against the CRDs in DIR (repeatable; rule LKD-SCHEMA-001)
  --inventory PATH                   YAML of objects that exist in the cluster but not in PATH, e.g. pre-existing
                                     Services (repeatable; never reported on, only looked up)
  --cluster-networks CIDRS           The cluster's pod and service networks, comma-separated (default: the chart's)
  --kubernetes-version V             Target Kubernetes version (default: 1.31)
  --gateway-api-version V            Gateway API bundle installed in the cluster (default: v1.2.1)
  --trust-domain D                   Linkerd identity trust domain (default: cluster.local)
  --default-inbound-policy P         Cluster default inbound policy (default: all-unauthenticated)
                                     one of: ${DEFAULT_INBOUND_POLICIES.join(', ')}
  --prometheus NS/SA                 ServiceAccount of the Prometheus that scrapes the proxies (LKD-POL-021;
                                     default: linkerd-viz/prometheus when that ServiceAccount is in the input)
  --help                             Show this help

Findings on objects annotated with analysis.cdk8s-linkerd.io/suppress are suppressed (listed with their reasons).
`;

export const IMPORT_USAGE = `Usage: cdk8s-linkerd import [--out FILE] PATH...

Reads Linkerd and Gateway API YAML (files, folders, "-" for stdin) and writes a TypeScript module that rebuilds every
object: with cdk8s-linkerd constructs (Server, MeshTlsAuthentication, NetworkAuthentication, AuthorizationPolicy,
MeshedNamespace, HttpRoute, GrpcRoute) where one rebuilds the object exactly, and as cdk8s ApiObjects otherwise.
Synthesizing the module writes the same objects back (modulo key order).

Options:
  --out FILE   Write the module to FILE (default: stdout)
`;
