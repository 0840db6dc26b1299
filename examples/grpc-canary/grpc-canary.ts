/**
 * A gRPC canary with retries, in the style of Linkerd's emojivoto: the emoji service runs in two versions behind a
 * 90/10 split, its two read methods are retried on UNAVAILABLE, every other call (the writes, and methods added later)
 * goes to the same shares without retries, and only the web identity may call it.
 */
import { Chart, ChartProps, Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AppProtocol, GrpcRetryCode, GrpcRouteMatch, GrpcTrafficSplit, MeshedDeployment, MeshedNamespace, PodSelection, ProxyProtocol, Server,
  ServerAccess, ServerPort,
} from '../../src';

export const NAMESPACE = 'emojivoto';
const GRPC_PORT = 8080;
const EMOJI_IMAGE = 'docker.l5d.io/buoyantio/emojivoto-emoji-svc:v12';
const WEB_IMAGE = 'docker.l5d.io/buoyantio/emojivoto-web:v12';
/** The emoji service's read methods: safe to repeat, so they are the ones retried (LKD-RETRY-001). */
const READS: GrpcRouteMatch[] = [
  { service: 'emojivoto.v1.EmojiService', method: 'ListAll' },
  { service: 'emojivoto.v1.EmojiService', method: 'FindByShortcode' },
];

const SMALL = {
  cpu: { request: kplus.Cpu.millis(10), limit: kplus.Cpu.millis(200) },
  memory: { request: Size.mebibytes(16), limit: Size.mebibytes(64) },
};

/** The emoji service, one version. */
function emojiContainer(): kplus.ContainerProps {
  return {
    name: 'emoji-svc',
    image: EMOJI_IMAGE,
    envVariables: { GRPC_PORT: kplus.EnvValue.fromValue(String(GRPC_PORT)) },
    ports: [{ name: 'grpc', number: GRPC_PORT }],
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    securityContext: { user: 65532, group: 65532 },
    resources: SMALL,
  };
}

/** The web front-end, which calls the emoji service over gRPC. */
function webContainer(): kplus.ContainerProps {
  return {
    name: 'web',
    image: WEB_IMAGE,
    envVariables: {
      WEB_PORT: kplus.EnvValue.fromValue('8080'),
      EMOJISVC_HOST: kplus.EnvValue.fromValue(`emoji-svc.${NAMESPACE}:${GRPC_PORT}`),
    },
    ports: [{ name: 'http', number: 8080 }],
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    securityContext: { user: 65532, group: 65532 },
    resources: SMALL,
  };
}

/** The gRPC canary scenario. */
export class GrpcCanary extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, { labels: props.labels, disableResourceNameHashes: props.disableResourceNameHashes, namespace: NAMESPACE });
    new MeshedNamespace(this, 'Namespace', { name: NAMESPACE });

    const emojiIdentity = new kplus.ServiceAccount(this, 'EmojiIdentity', { metadata: { name: 'emoji' }, automountToken: false });
    const webIdentity = new kplus.ServiceAccount(this, 'WebIdentity', { metadata: { name: 'web' }, automountToken: false });

    // Each version serves gRPC on 8080; appProtocol HTTP2 (kubernetes.io/h2c) is what Linkerd reads as gRPC-capable —
    // "grpc" would make it treat the port as opaque TCP and ignore the routes.
    const grpcPort = { port: GRPC_PORT, name: 'grpc', appProtocol: AppProtocol.HTTP2 };
    const emojiV1 = this.emojiVersion('v1', emojiIdentity);
    const emojiV2 = this.emojiVersion('v2', emojiIdentity);
    // A Service per version (emoji-v1, emoji-v2), and the stable one over all versions.
    const v1 = emojiV1.exposeService({ ports: [grpcPort] });
    const v2 = emojiV2.exposeService({ ports: [grpcPort] });
    const emoji = emojiV1.exposeService({ name: 'emoji-svc', allVersions: true, ports: [grpcPort] });

    const web = new MeshedDeployment(this, 'Web', { name: 'web', app: 'web', serviceAccount: webIdentity, containers: [webContainer()] });
    web.addCall(emoji, GRPC_PORT);

    // Only web may call the emoji service; the Server tells the proxy the port speaks gRPC.
    const emojiGrpc = new Server(this, 'EmojiGrpc', {
      name: 'emoji-grpc', selector: PodSelection.app('emoji'), port: ServerPort.name('grpc'), proxyProtocol: ProxyProtocol.GRPC,
    });
    ServerAccess.allow(emojiGrpc, { policyName: 'web-to-emoji', authenticationName: 'web', serviceAccounts: [webIdentity] });

    // 90/10 for every call; the reads are retried, everything else goes on at the same shares without retries.
    new GrpcTrafficSplit(this, 'EmojiCanary', {
      name: 'emoji-canary',
      service: emoji,
      port: GRPC_PORT,
      backends: [{ service: v1, percent: 90 }, { service: v2, percent: 10 }],
      rules: [{
        name: 'emoji-reads',
        matches: READS,
        retry: { codes: [GrpcRetryCode.UNAVAILABLE], limit: 2, timeout: Duration.millis(300) },
        timeouts: { request: Duration.seconds(2) },
      }],
    });
  }

  /** The emoji service in one version, under the identity both versions share. */
  private emojiVersion(version: string, serviceAccount: kplus.IServiceAccount): MeshedDeployment {
    return new MeshedDeployment(this, `Emoji-${version}`, {
      name: `emoji-${version}`, app: 'emoji', version, serviceAccount, containers: [emojiContainer()],
    });
  }
}
