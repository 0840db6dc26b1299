export * from './options';
export * from './high-availability';
export * from './control-plane';
