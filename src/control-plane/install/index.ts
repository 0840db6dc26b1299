export { LinkerdInstallOptions, LinkerdProxyOptions, ProxyResources, ProxyLogHttpHeaders, WebhookFailurePolicy } from './options';
export { HighAvailabilityPreset } from './high-availability';
export { LinkerdControlPlane, LinkerdControlPlaneProps, LinkerdChartValues } from './control-plane';
