export { LinkerdViz, LinkerdVizProps, vizHighAvailabilityValues } from './viz';
export { VizScrapeAccess, VizScrapeAccessProps } from './scrape-access';
export { TapAccess, TapAccessProps, TapSubject } from './tap-access';
