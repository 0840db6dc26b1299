export { LinkerdViz, LinkerdVizProps } from './viz';
export { VizScrapeAccess, VizScrapeAccessProps } from './scrape-access';
export { TapAccess, TapAccessProps, TapSubject } from './tap-access';
