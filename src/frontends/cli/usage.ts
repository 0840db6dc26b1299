/** Help texts, kept apart from the logic so they read like the documentation they are. */
import { contextOptionsUsage } from '../../analysis/context-options';

export const MAIN_USAGE = `Usage: cdk8s-linkerd <command> [options]

Static checks for Linkerd 2.20 and Gateway API manifests.

Commands:
  analyze [options] PATH...   Check YAML files and folders (recursively *.yaml, *.yml; "-" reads stdin)
                              (--cluster NAME=PATH, repeatable: several clusters and the fleet checks)
  rules [--format text|json]  List the rules: ID, severity and title
  explain PATH... --to NS/WORKLOAD:PORT | --to-service NS/SERVICE:PORT
                              Who may call a workload's port and why (the offline linkerd authz), or what a
                              Service port does with requests (protocol, routes, shares, retries, timeouts)
  diff BASE HEAD              What HEAD changes against BASE: calls allowed/denied, shares, ignored objects
  plan-deny PATH... --namespace NS|--cluster [--observed FILE]
                              The calls a move of NS to deny would refuse, and the objects that keep them allowed
  import [--out FILE] PATH... Write TypeScript that rebuilds existing YAML with cdk8s-linkerd constructs

Options:
  --help      Show help (also: cdk8s-linkerd analyze --help)
  --version   Print the version

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above --fail-on, 2 bad usage or unreadable input.
`;

export const ANALYZE_USAGE = `Usage: cdk8s-linkerd analyze [options] PATH...
       cdk8s-linkerd analyze [options] --cluster NAME=PATH --cluster NAME=PATH ...

Options:
  --cluster NAME=PATH                Analyse several clusters together (repeatable; NAME is the cluster name Links use):
                                     each cluster alone, then the fleet checks (LKD-MC-*: shared anchors, one issuer
                                     per cluster, Links, exported Services, cross-cluster calls); findings name the cluster
  --format FORMAT                    Output format on stdout: text, json, sarif, mermaid, junit (a test case per rule
                                     and object) or github (workflow commands GitHub shows on the diff) (default: text)
  --output FORMAT=FILE               Also write a report in FORMAT to FILE (repeatable: SARIF, JUnit and text in one run)
  --fail-on error|warning            Lowest severity that makes the exit code 1 (default: the config's failOn, else error)
  --config FILE                      Settings file (default: the nearest .cdk8s-linkerd.yaml from here up to the
                                     repository root): rules (off|info|warning|error per ID), failOn, exclude (globs of
                                     files to skip), docsUrl and every option below under its flag name; flags win
  --docs-url URL                     Base URL of the rule documentation findings link to (default: the config's
                                     docsUrl, else the package's docs/rules.md)
  --verbose                          Text format: print each finding's documentation link
  --crds DIR                         Also validate objects against the CRDs in DIR (repeatable; rule LKD-SCHEMA-001)
  --inventory PATH                   YAML of objects that exist in the cluster but not in PATH, e.g. pre-existing
                                     Services (repeatable; never reported on, only looked up)
  --help                             Show this help

What the checks know about the cluster (a control-plane install in PATH — Argo CD / Flux values or linkerd-config —
sets these too; a flag wins):
${contextOptionsUsage()}

Findings on an object annotated with analysis.cdk8s-linkerd.io/suppress (a JSON list) or
ignore-check.cdk8s-linkerd.io/<RULE-ID>: "<reason>" are suppressed on that object only (listed with their reasons).
Files cdk8s writes beside the manifests (construct-metadata.json, validation reports) are skipped with a note.
`;

export const IMPORT_USAGE = `Usage: cdk8s-linkerd import [--out FILE] PATH...

Reads Linkerd and Gateway API YAML (files, folders, "-" for stdin) and writes a TypeScript module that rebuilds every
object: with cdk8s-linkerd constructs (Server, MeshTlsAuthentication, NetworkAuthentication, AuthorizationPolicy,
MeshedNamespace, HttpRoute, GrpcRoute) where one rebuilds the object exactly, and as cdk8s ApiObjects otherwise.
Synthesizing the module writes the same objects back (modulo key order).

Options:
  --out FILE   Write the module to FILE (default: stdout)
`;

/** The cluster options every engine command takes: the one table of context options, plus --inventory. */
const CLUSTER_OPTIONS = `  --inventory PATH                   YAML of objects that exist in the cluster but not in PATH (repeatable)
${contextOptionsUsage()}`;

export const DIFF_USAGE = `Usage: cdk8s-linkerd diff [options] BASE HEAD

BASE and HEAD are YAML files or folders (two synth outputs, or the YAML of two commits). Compares the two, request
class by request class, grouped caller -> target -> request class: the requests that go allowed -> denied or
denied -> allowed (a refusal for want of a route included), with the objects that made the difference; a workload
whose ServiceAccount changes shows as the calls that change; the requests to a Service port another route (or a 404)
now takes, or that start or stop being retried; traffic shares that change per route; objects that become ignored or
start to apply; retry and timeout settings that change. No output means no request of any caller is treated
differently. Declared refusals (analysis.cdk8s-linkerd.io/refused-calls) whose verdict
changes are listed too, a refusal HEAD allows counting as denied-to-allowed.

Options:
  --format text|markdown|json|sarif|github|junit
                                     Output format (default: text); markdown is a pull-request comment with a
                                     summary line, a table and a Mermaid graph of the changed part; github and
                                     junit make the changes --fail-on names errors (failures), the rest notices
  --fail-on allowed-to-denied|denied-to-allowed|authorization|route|share|retry|timeout|ignored|any
                                     Exit 1 when a change matches: a direction, a kind of change, or any
                                     (default: always exit 0)
  --output FORMAT=FILE               Also write the diff in FORMAT to FILE (repeatable)
  --config FILE                      Settings file (default: the nearest .cdk8s-linkerd.yaml): cluster options, exclude
${CLUSTER_OPTIONS}
  --help                             Show this help

Callers are named mesh-lab/client (a ServiceAccount), mesh-lab/* (any other identity of a namespace an
authorization names), other-meshed (any other meshed identity), unauthenticated (no proxy, inside the cluster
networks) and external (no proxy, outside them).
Exit codes: 0, 1 when a change matches --fail-on, 2 bad usage or unreadable input.
`;

export const EXPLAIN_USAGE = `Usage: cdk8s-linkerd explain [options] PATH... --to NAMESPACE/WORKLOAD:PORT
       cdk8s-linkerd explain [options] PATH... --to-service NAMESPACE/SERVICE:PORT

--to: the resolved inbound policy of a workload's port (Server, protocol, routes and their matches, authorizations and
the authentications they require, the generated default and probe routes, the default policy and where it comes
from), then a verdict table: for each caller the manifests know and each request class (each route, each generated
probe path, and the requests no route matches), ALLOW, DENY or UNSURE. --verbose adds why, naming the deciding objects.
--to-service: what a meshed client's proxy does with requests to a Service port: protocol, routes, backends with
their shares, retries, timeouts, the default route; then each request class and what it gets (route, backends,
retry, timeout, or 404), and the attempts one request of each request class may make. Both add the local rate
limits on the way with their cluster-wide capacity (rate x proxies), and the declared refusals that land there with
their verdicts.

Options:
  --from NS/SA|unauthenticated|external|kubelet|other-meshed   Only this caller
  --method M --path P                Only the request class this request falls in (method defaults to GET)
  --verbose                          Add the deciding objects and the reasons of each verdict
  --format text|json                 Output format (default: text)
${CLUSTER_OPTIONS}
  --help                             Show this help

This is a static reading of the manifests, not of a live cluster (there, use linkerd authz / linkerd diagnostics policy).
`;

export const PLAN_DENY_USAGE = `Usage: cdk8s-linkerd plan-deny [options] PATH... --namespace NS | --cluster

Lists every call that moving namespace NS to config.linkerd.io/default-inbound-policy: deny would refuse, and writes
the Server, MeshTLSAuthentication, NetworkAuthentication and AuthorizationPolicy objects (and the ServerAccess.allow
lines for construct users) that keep them allowed. Calls come from the declarations (addCall, the
analysis.cdk8s-linkerd.io/calls annotation), from --observed, and from Prometheus scraping the proxies (when
--prometheus is given or linkerd-viz's ServiceAccount is in the input). Probes need nothing: a Server without routes
keeps the probe routes Linkerd generates. Applying the objects and running plan-deny again reports nothing left.

Options:
  --namespace NS                     The namespace to move (its config.linkerd.io/default-inbound-policy)
  --cluster                          Move the cluster default (proxy.defaultInboundPolicy) instead
  --to-policy deny|all-authenticated The policy moved to (default: deny)
  --observed FILE                    Calls seen on the cluster (repeatable), in either format:
                                     JSON of linkerd viz edges <type> -n NS -o json: edges name workloads, so every
                                       declared port of the destination is kept open to the caller;
                                     Prometheus text of linkerd diagnostics proxy-metrics -n NS <workload> (or of
                                       Prometheus /federate): each inbound_http_authz_allow_total or
                                       inbound_tcp_authz_allow_total sample is a call of its client_id (none:
                                       unauthenticated) to its pod's target_port, audit's would-be denials included;
                                       samples without a namespace label are taken to be in --namespace
  --format text|yaml|json            text: the report and the objects; yaml: only the objects (default: text)
${CLUSTER_OPTIONS}
  --help                             Show this help

audit (default-inbound-policy: audit) only logs would-be denials: it is an observation step, not a security boundary.
Exit codes: 0 nothing would be refused, 1 some call would be refused, 2 bad usage or unreadable input.
`;
