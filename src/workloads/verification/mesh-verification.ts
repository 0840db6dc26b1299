/**
 * Evidence after apply: one Kubernetes Job per declared call and refusal, running as the caller (its ServiceAccount,
 * meshed or plaintext as the caller is), that sends the request and checks what the target's proxy answers.
 */
import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { verificationRunbook } from './runbook';
import { VERDICT_SCRIPT } from './verdict-script';
import { registerChecks } from '../../checks/register';
import { INJECT_ANNOTATION } from '../../core/default-inbound-policy';
import { InputRule, check, fail } from '../../core/errors';
import { optionalInteger, optionalList, requireString } from '../../core/runtime-checks';
import { DeclaredRequest, MeshedDeployment } from '../meshed-deployment';
import { proxyAnnotations } from '../proxy-config';

/**
 * The image the Jobs run: curl on busybox (sh). Pinned by exact version tag: the digest of a multi-architecture
 * image could not be verified where this library is built, and a wrong digest would be worse than a tag.
 */
export const VERIFICATION_IMAGE = 'curlimages/curl:8.14.1';

/** The label every verification Job and its pod carry: select them to watch, read and remove them. */
export const VERIFICATION_COMPONENT = 'mesh-verification';
const COMPONENT_LABEL = 'app.kubernetes.io/component';

/** How the Jobs send their request. */
export enum VerificationProtocol {
  /** HTTP/1.1 with the declared method and path (GET / when none is declared). */
  HTTP = 'http',
  /** gRPC: POST of an empty message over HTTP/2 without TLS to the declared path (`/package.Service/Method`). */
  GRPC = 'grpc',
}

/** Props for MeshVerification. */
export interface MeshVerificationProps {
  /**
   * The workloads whose declared calls (addCall) and refusals (addRefusedCall) get a Job each.
   * @default - every MeshedDeployment of the app that declares any, as declared when the MeshVerification is created
   */
  readonly workloads?: MeshedDeployment[];
  /**
   * How the Jobs send the request.
   * @default VerificationProtocol.HTTP
   */
  readonly protocol?: VerificationProtocol;
  /**
   * The image the Jobs run; it needs sh and curl (with HTTP/2 for gRPC).
   * @default "curlimages/curl:8.14.1"
   */
  readonly image?: string;
  /**
   * The cluster's DNS domain, for the Service's name.
   * @default "cluster.local"
   */
  readonly clusterDomain?: string;
  /**
   * Seconds the request may take before the Job gives no verdict (and fails).
   * @default 10
   */
  readonly timeoutSeconds?: number;
}

/** One Job's inputs. */
interface Check {
  readonly workload: MeshedDeployment;
  readonly request: DeclaredRequest;
}

const DNS_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SMALL = {
  cpu: { request: kplus.Cpu.millis(10), limit: kplus.Cpu.millis(200) },
  memory: { request: Size.mebibytes(16), limit: Size.mebibytes(64) },
};

/**
 * Kubernetes Jobs that produce the evidence of the declared calls and refusals after apply. Each Job runs as the
 * caller — its ServiceAccount, meshed (the proxy as a native sidecar, so the Job completes) or with injection disabled
 * for a plaintext caller — sends the declared request to the Service, prints one verdict line, and exits 0 when the
 * target's proxy answered as declared (allowed: not refused by the proxy; refused: refused by the proxy, never
 * reaching the app) or 1 otherwise. `runbook()` says how to run, read and remove them.
 *
 * @exampleMetadata fixture=shop
 * @example
 * const web = new MeshedDeployment(chart, 'Web', { name: 'web', app: 'web', containers: [{ image: 'curlimages/curl:8.14.1', securityContext: { user: 100 } }] });
 * web.addCall(ordersService, 8080, { method: 'GET', path: '/' });
 * new MeshVerification(chart, 'Verify', { workloads: [web] });
 */
export class MeshVerification extends Construct {
  /** The Jobs, one per declared call or refusal, in declaration order. */
  public readonly jobs: kplus.Job[] = [];
  private readonly checks: Check[];

  constructor(scope: Construct, id: string, props: MeshVerificationProps = {}) {
    super(scope, id);
    registerChecks(this);
    optionalList(this, props.workloads, 'workloads', (w): w is MeshedDeployment => w instanceof MeshedDeployment, 'MeshedDeployment constructs');
    const protocol = props.protocol ?? VerificationProtocol.HTTP;
    check(Object.values(VerificationProtocol).includes(protocol), this, InputRule.RANGE,
      `protocol ${JSON.stringify(protocol)} is not a VerificationProtocol.`, 'Use VerificationProtocol.HTTP or VerificationProtocol.GRPC.');
    const image = props.image === undefined ? VERIFICATION_IMAGE : requireString(this, props.image, 'image');
    if (!/^\S+$/.test(image)) fail(this, InputRule.NAME, `image ${JSON.stringify(image)} contains whitespace, so it is no image reference.`, 'Use e.g. "curlimages/curl:8.14.1".');
    const domain = props.clusterDomain === undefined ? 'cluster.local' : requireString(this, props.clusterDomain, 'clusterDomain');
    if (!DNS_NAME.test(domain)) fail(this, InputRule.NAME, `clusterDomain ${JSON.stringify(domain)} is not a DNS name.`, 'Use e.g. "cluster.local".');
    const timeout = optionalInteger(this, props.timeoutSeconds, 'timeoutSeconds', 1, 600) ?? 10;
    const workloads = props.workloads ?? this.node.root.node.findAll().filter((c): c is MeshedDeployment => c instanceof MeshedDeployment);
    this.checks = workloads.flatMap((workload) => workload._declaredRequests().map((request) => ({ workload, request })));
    check(this.checks.length > 0, this, InputRule.REQUIRED,
      'MeshVerification found no declared call or refusal to verify.',
      'Create it after the workloads call addCall / addRefusedCall, or pass workloads that declare some.');
    // A call or refusal declared after this construct would go unverified without a word: synth says so instead.
    this.node.addValidation({ validate: () => this.unverified(props.workloads) });
    const counts = new Map<MeshedDeployment, number>();
    for (const c of this.checks) {
      const n = (counts.get(c.workload) ?? 0) + 1;
      counts.set(c.workload, n);
      this.jobs.push(this.job(c, n, { protocol, image, domain, timeout }));
    }
  }

  /** How to run the Jobs, read their verdicts and remove them (Markdown), for the file the Jobs are written to. */
  public runbook(manifestFile: string): string {
    requireString(this, manifestFile, 'manifestFile');
    const namespaces = [...new Set(this.checks.map((c) => c.workload.deployment.metadata.namespace ?? 'default'))].sort();
    return verificationRunbook({ manifestFile, namespaces, selector: `${COMPONENT_LABEL}=${VERIFICATION_COMPONENT}`, jobs: this.jobs.map((j) => j.name) });
  }

  private unverified(given: MeshedDeployment[] | undefined): string[] {
    const workloads = given ?? this.node.root.node.findAll().filter((c): c is MeshedDeployment => c instanceof MeshedDeployment);
    const late = workloads.filter((w) => w._declaredRequests().length !== this.checks.filter((c) => c.workload === w).length);
    return late.length === 0 ? [] : [`${InputRule.REQUIRED}: MeshVerification ${this.node.path} has no Job for calls or refusals that `
      + `${late.map((w) => w.name).join(', ')} declared after it was created. Fix: create the MeshVerification after the last addCall / addRefusedCall.`];
  }

  private job(c: Check, n: number, o: { protocol: VerificationProtocol; image: string; domain: string; timeout: number }): kplus.Job {
    const { workload, request } = c;
    const callerNamespace = workload.deployment.metadata.namespace;
    const namespace = request.namespace ?? callerNamespace ?? 'default';
    const method = o.protocol === VerificationProtocol.GRPC ? 'POST' : request.method ?? 'GET';
    const path = request.path ?? '/';
    // Job names are label values too (job-name): at most 63 characters.
    const name = `verify-${workload.name.slice(0, 40)}-${request.refused ? 'refused' : 'call'}-${n}`;
    const tmp = kplus.Volume.fromEmptyDir(this, `Tmp-${name}`, 'tmp');
    const job = new kplus.Job(this, name, {
      metadata: { name, namespace: callerNamespace, labels: { [COMPONENT_LABEL]: VERIFICATION_COMPONENT } },
      serviceAccount: workload.serviceAccount,
      automountServiceAccountToken: false,
      backoffLimit: 0,
      activeDeadline: Duration.seconds(o.timeout + 120),
      restartPolicy: kplus.RestartPolicy.NEVER,
      volumes: [tmp],
      containers: [{
        name: 'verify',
        image: o.image,
        imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
        command: ['sh', '-c', VERDICT_SCRIPT],
        envVariables: {
          VERIFY_CALLER: kplus.EnvValue.fromValue(`${callerNamespace ?? 'default'}/${workload.name}`),
          VERIFY_EXPECT: kplus.EnvValue.fromValue(request.refused ? 'refused' : 'allowed'),
          VERIFY_PROTOCOL: kplus.EnvValue.fromValue(o.protocol),
          VERIFY_METHOD: kplus.EnvValue.fromValue(method),
          VERIFY_REQUEST: kplus.EnvValue.fromValue(`${method} ${path}`),
          VERIFY_URL: kplus.EnvValue.fromValue(`http://${request.service}.${namespace}.svc.${o.domain}:${request.port}${path}`),
          VERIFY_TIMEOUT: kplus.EnvValue.fromValue(String(o.timeout)),
        },
        // The image's USER is the name "curl_user"; runAsNonRoot cannot verify a non-numeric user, so give its UID/GID.
        securityContext: { user: 100, group: 101 },
        // The root filesystem is read-only; the gRPC request is written to /tmp.
        volumeMounts: [{ volume: tmp, path: '/tmp' }],
        resources: SMALL,
      }],
    });
    job.podMetadata.addLabel(COMPONENT_LABEL, VERIFICATION_COMPONENT);
    if (workload.meshed) {
      // A meshed Job completes only when its proxy stops with the main container: a native sidecar does. Its
      // startupProbe on /ready (linkerd2 charts/partials/templates/_proxy.tpl, with proxy.await) holds the check back
      // until the proxy can route.
      job.podMetadata.addAnnotation(INJECT_ANNOTATION, 'enabled');
      for (const [key, value] of Object.entries(proxyAnnotations(this, { nativeSidecar: true }))) job.podMetadata.addAnnotation(key, value);
    } else {
      job.podMetadata.addAnnotation(INJECT_ANNOTATION, 'disabled');
    }
    return job;
  }
}
