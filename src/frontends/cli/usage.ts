/** Help texts, kept apart from the logic so they read like the documentation they are. */
import { contextOptionsUsage } from '../../analysis/context-options';

export const MAIN_USAGE = `Usage: cdk8s-linkerd <command> [options]

Static checks for Linkerd 2.20 and Gateway API manifests.

Commands:
  analyze [options] PATH...   Check YAML files and folders (recursively *.yaml, *.yml; "-" reads stdin)
  rules [--format text|json]  List the rules: ID, severity and title

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
  --help                             Show this help

What the checks know about the cluster (a control-plane install in PATH — Argo CD / Flux values or linkerd-config —
sets these too; a flag wins):
${contextOptionsUsage()}

Findings on objects annotated with analysis.cdk8s-linkerd.io/suppress are suppressed (listed with their reasons).
`;
