export * from './mode';
export * from './credentials';
export * from './link';
export * from './multicluster';
export * from './exported-service';
export * from './fleet';
export * from './fleet-rotation';
