export { LinkerdInstallOptions, LinkerdCniOptions, LinkerdProxyOptions, ProxyResources, ProxyLogHttpHeaders, WebhookFailurePolicy } from './options';
export { HighAvailabilityPreset } from './high-availability';
export { LinkerdControlPlane, LinkerdControlPlaneProps, LinkerdChartValues } from './control-plane';
export { ZoneSpread } from './fault-domains';
export { ImageDistribution, ImageDistributionOptions, DistributedImage } from './image-distribution';
